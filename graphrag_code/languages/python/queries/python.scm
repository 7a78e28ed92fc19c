; Captures the Python parser turns into records (see graphrag_code/languages/python/parser.py).
; Capture names are the contract: definition.*, import.*, call, bind.*, local, global,
; annotation, isinstance.

(class_definition name: (identifier)) @definition.class
(function_definition name: (identifier)) @definition.function

(import_statement) @import.plain
(import_from_statement) @import.from

(call function: (_)) @call

; Assignments to a name or to self.attr: x = Foo(...), x = other.name, x: Foo = ...
; (python.py reads the right-hand side and the annotation)
(assignment left: (identifier) @bind.target)
(assignment left: (attribute object: (identifier) @_self attribute: (identifier)) @bind.target
  (#eq? @_self "self"))

; with Foo(...) as x (python.py takes the call and the name from the item: capture lists are
; not in source order, so two lists cannot be paired by position)
(with_item value: (as_pattern (call) alias: (as_pattern_target (identifier)))) @with.item

; Names bound in a scope (so a local `f` is never mistaken for the module-level `f`).
(assignment left: (identifier) @local)
(assignment left: (pattern_list (identifier) @local))
(assignment left: (tuple_pattern (identifier) @local))
(assignment left: (list_pattern (identifier) @local))
(augmented_assignment left: (identifier) @local)
(for_statement left: (identifier) @local)
(for_statement left: (pattern_list (identifier) @local))
(for_statement left: (tuple_pattern (identifier) @local))
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @local)))
(except_clause (as_pattern alias: (as_pattern_target (identifier) @local)))
(named_expression name: (identifier) @local)
(for_in_clause left: (identifier) @local)
(for_in_clause left: (pattern_list (identifier) @local))
(for_in_clause left: (tuple_pattern (identifier) @local))
(lambda_parameters (identifier) @local)
(import_statement name: (dotted_name . (identifier) @local))
(import_statement name: (aliased_import alias: (identifier) @local))
(import_from_statement name: (dotted_name (identifier) @local))
(import_from_statement name: (aliased_import alias: (identifier) @local))
(function_definition name: (identifier) @local)
(class_definition name: (identifier) @local)
(global_statement (identifier) @global)
(nonlocal_statement (identifier) @global)

; Type uses: every annotation, and the class argument of isinstance / issubclass.
(type) @annotation
(call function: (identifier) @_isinstance
  arguments: (argument_list . (_) . (_) @isinstance)
  (#any-of? @_isinstance "isinstance" "issubclass"))

; Value flow (python_flows.py): assignments, returns, loops, `with`, `except`, decorators,
; defaults, lambdas; and the syntax that calls special methods.
(assignment) @flow.assign
(augmented_assignment) @flow.augment
(return_statement) @flow.return
(yield) @flow.yield
(for_statement) @flow.for
(for_in_clause) @flow.comprehension
(with_item) @flow.with
(except_clause) @flow.except
(named_expression) @flow.walrus
(lambda) @flow.lambda
(default_parameter) @flow.default
(typed_default_parameter) @flow.default
(typed_parameter) @flow.typed
(typed_default_parameter) @flow.typed
(if_statement) @flow.narrow
(elif_clause) @flow.narrow
(assert_statement) @flow.narrow
(decorated_definition) @flow.decorated
(binary_operator) @implicit.operator
(comparison_operator) @implicit.operator
(subscript) @implicit.subscript
(attribute) @implicit.attribute
(unary_operator) @implicit.operator
(interpolation) @implicit.format
(raise_statement) @implicit.raise
(if_statement condition: (_) @implicit.truth)
(elif_clause condition: (_) @implicit.truth)
(while_statement condition: (_) @implicit.truth)
(if_clause (_) @implicit.truth)
(assert_statement . (_) @implicit.truth)
(not_operator argument: (_) @implicit.truth)
(boolean_operator left: (_) @implicit.truth)
(conditional_expression) @implicit.conditional
