// Caller qualified name -> callee qualified names (internal and external) of one repository.
// Parameters: $repo, $certain (true: only exact and inferred edges)
MATCH (caller:Code {repo: $repo})-[r:CALLS]->(callee)
WHERE NOT $certain OR r.resolution IN ['exact', 'inferred']
RETURN caller.qualified_name AS caller, collect(DISTINCT callee.qualified_name) AS callees
