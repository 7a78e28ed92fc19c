// What a repository holds: nodes per kind and language, edges per type and resolution.
// :param repo => 'shop'
MATCH (n:Code {repo: $repo})
WITH n.kind AS kind, n.language AS language, count(*) AS nodes
RETURN 'node' AS what, kind AS name, language, nodes AS count
UNION ALL
MATCH (s:Code {repo: $repo})-[r]->()
RETURN 'edge' AS what, type(r) + coalesce('/' + r.resolution, '') AS name,
       s.language AS language, count(*) AS count
