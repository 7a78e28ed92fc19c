// Every node of the given files of a repository (modules and their symbols), with their
// test roles: what a diff's changed lines and a `tests-for PATH` map onto.
// Parameters: $repo, $lists {paths}
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.paths AS path
MATCH (n:Code {path: path})
WHERE n.repo = $repo
RETURN n.id AS id, n.qualified_name AS qualified_name, n.name AS name, n.kind AS kind,
       n.path AS path, n.repo AS repo, n.start_line AS start_line, n.end_line AS end_line,
       coalesce(n.test_code, false) AS test_code, n.test_role AS test_role,
       coalesce(n.pagerank, 0.0) AS pagerank
ORDER BY path, start_line, qualified_name
