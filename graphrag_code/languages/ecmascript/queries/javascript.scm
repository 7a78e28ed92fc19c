; What only the JavaScript grammar has (added to ecmascript.scm).

(field_definition value: [(arrow_function) (function_expression)]) @def.field
(field_definition property: (_)) @bind.field
