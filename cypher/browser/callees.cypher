// What a function or method calls, inside the repository and outside it.
// :param name => 'shop.api.create_order_endpoint'
MATCH (source:Code {qualified_name: $name})-[r:CALLS]->(callee)
RETURN source, r, callee
