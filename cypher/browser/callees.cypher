// What a function or method calls, inside the repository and outside it. Possible callees
// have resolution 'name' (the only definition of that name), 'many' (one of more values than
// a certain call may have: `via` says which), 'signature' (a function of the callable type
// the callee is declared as: `via` names it), 'partial' (one of the values known to reach a
// call that others may reach too) or 'dispatch' (an override the call may reach: `via` names
// the base method).
// :param name => 'shop.api.create_order_endpoint'
MATCH (source:Code {qualified_name: $name})-[r:CALLS]->(callee)
RETURN source, r, callee, r.resolution AS resolution, r.via AS why
