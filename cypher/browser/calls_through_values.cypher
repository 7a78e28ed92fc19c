// Calls found through values (a variable, a returned function, a dict of handlers, a
// parameter, a decorator): the edge's `via` says how the call reached its target.
// :param repo => 'shop'
MATCH (caller:Code {repo: $repo})-[r:CALLS]->(callee)
WHERE r.via IS NOT NULL
RETURN caller.qualified_name AS caller, callee.qualified_name AS callee,
       r.resolution AS resolution, r.lines AS lines, r.via AS via
ORDER BY caller, callee
LIMIT 200
