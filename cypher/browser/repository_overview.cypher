// What a repository holds: nodes per kind and edges per type and resolution.
// :param repo => 'shop'
MATCH (n:Code {repo: $repo})
WITH n.kind AS kind, count(*) AS nodes
RETURN 'node' AS what, kind AS name, nodes AS count
UNION ALL
MATCH (:Code {repo: $repo})-[r]->()
RETURN 'edge' AS what, type(r) + coalesce('/' + r.resolution, '') AS name, count(*) AS count
