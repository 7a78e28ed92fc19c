; Captures shared by the TypeScript, TSX and JavaScript grammars (see languages/ecmascript/parser.py).
; typescript.scm / javascript.scm add what only one grammar has. Capture names are the
; contract: def.*, import.*, export, call, new, bind.*, local, function.any, instanceof.

; -- definitions ---------------------------------------------------------------------------
(function_declaration name: (identifier)) @def.function
(generator_function_declaration name: (identifier)) @def.function
(class_declaration) @def.class
; a named class a function returns (a mixin: `return class Target extends Wrapped {…}`)
(return_statement (class name: (_)) @def.class)
(method_definition) @def.method
(variable_declarator
  name: (identifier)
  value: [(arrow_function) (function_expression) (generator_function) (class)]) @def.variable
; `const isArrayLike = (<T>(x: any): x is ArrayLike<T> => …)`: a function in parentheses
(variable_declarator
  name: (identifier)
  value: (parenthesized_expression [(arrow_function) (function_expression)])) @def.variable
(variable_declarator name: (identifier) value: (object)) @def.object
; `var app = exports = module.exports = {}`, `var res = Object.create(…)`: objects whose methods
; are assigned after (`app.init = function …`) when the file does so
(variable_declarator
  name: (identifier)
  value: [(assignment_expression) (call_expression)]) @def.object
(assignment_expression
  left: (member_expression)
  right: [(arrow_function) (function_expression) (generator_function) (class) (object)]) @def.assignment
(export_statement value: [(arrow_function) (function_expression) (generator_function) (class)]) @def.default
(pair value: [(arrow_function) (function_expression) (generator_function)]) @def.pair
; after a syntax error, `function f() {…}` may come back as an expression inside the error
(ERROR (function_expression name: (identifier)) @def.function)

; -- imports and exports -------------------------------------------------------------------
(import_statement) @import.es
(export_statement) @export
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string) .)
  (#eq? @_require "require")) @import.require
(call_expression function: (import) arguments: (arguments . (string))) @import.dynamic

; -- calls ---------------------------------------------------------------------------------
(call_expression function: (_)) @call
(new_expression constructor: (_)) @new

; -- bindings that may type a name ---------------------------------------------------------
(variable_declarator name: (identifier) @bind.variable)
(assignment_expression left: (identifier) @bind.assign)
(for_in_statement left: (identifier)) @bind.for_of
(program (comment) @bind.typedef)
(assignment_expression
  left: (member_expression object: (this) property: [(property_identifier) (private_property_identifier)]) @bind.this)
; module.exports = …, exports.x = … (typescript.py keeps those)
(assignment_expression left: (member_expression object: [(identifier) (member_expression)])) @exports.assignment

; -- names bound in a scope (a local `f` is never the module's `f`) ------------------------
(variable_declarator name: (identifier) @local)
(variable_declarator name: [(object_pattern) (array_pattern)] @local.pattern)
(function_declaration name: (identifier) @local)
(generator_function_declaration name: (identifier) @local)
(class_declaration name: (_) @local)
(catch_clause parameter: (identifier) @local)
(for_in_statement left: (identifier) @local)
(import_clause (identifier) @local)
(namespace_import (identifier) @local)
(import_specifier name: (identifier) @local !alias)
(import_specifier alias: (identifier) @local)

; every function-like node: its parameters belong to it (or, when anonymous, to the named
; scope around it)
[(function_declaration) (generator_function_declaration) (function_expression)
 (generator_function) (arrow_function) (method_definition)] @function.any

(binary_expression operator: "instanceof" right: (_) @instanceof)
