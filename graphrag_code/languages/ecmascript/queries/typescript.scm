; What only the TypeScript and TSX grammars have (added to ecmascript.scm).

(abstract_class_declaration) @def.class
(interface_declaration) @def.interface
(type_alias_declaration) @def.type
(enum_declaration) @def.enum
(internal_module name: (_)) @def.namespace
(module name: [(identifier) (nested_identifier)]) @def.namespace
(function_signature) @def.signature
(method_signature) @def.method_signature
(abstract_method_signature) @def.method_signature
(public_field_definition value: [(arrow_function) (function_expression)]) @def.field

(public_field_definition name: (_)) @bind.field
(property_signature name: (_)) @bind.field
(required_parameter (accessibility_modifier)) @bind.parameter_property
(optional_parameter (accessibility_modifier)) @bind.parameter_property

(abstract_class_declaration name: (_) @local)
(interface_declaration name: (_) @local)
(type_alias_declaration name: (_) @local)
(enum_declaration name: (_) @local)
(import_require_clause (identifier) @local)

(function_signature) @function.any
(method_signature) @function.any
(abstract_method_signature) @function.any

; type uses: annotations (parameters, variables, fields, return types), generic arguments,
; `satisfies` and `as`
(type_annotation) @type.annotation
(type_arguments) @type.annotation
(satisfies_expression) @type.satisfies
(as_expression) @type.as
