// Where call resolution gave up most: functions with many unresolved call sites.
// :param repo => 'shop'
MATCH (n:Code {repo: $repo})
WHERE n.unresolved_calls > 0
RETURN n.qualified_name AS symbol, n.path AS path, n.unresolved_calls AS unresolved,
       n.unresolved_names[..10] AS names
ORDER BY unresolved DESC
LIMIT 25
