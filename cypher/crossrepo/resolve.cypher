// Link the edges of repository row.repo to the :External row.name to the one node of
// repository row.target with that qualified name (or row.node, the name a package
// re-exports it under: reexports.cypher) instead (none or several: left alone). The
// new edge keeps the type and properties (tier, lines) and remembers the external it stands
// for, so that `release` can turn it back. Relationship types cannot be parameters: one
// FOREACH per type that reaches an :External.
// Parameters: $rows = [{repo, name, target, node}]
UNWIND $rows AS row
MATCH (t:Code {qualified_name: coalesce(row.node, row.name)})
WHERE t.repo = row.target
WITH row, collect(t) AS targets
WHERE size(targets) = 1
WITH row, targets[0] AS t
MATCH (s:Code {repo: row.repo})-[r:CALLS|IMPORTS|INHERITS]->(e:External {qualified_name: row.name})
WITH s, t, r, e, type(r) AS kind, properties(r) AS old
WITH s, t, r, kind, old {.*, external_name: e.qualified_name, external_package: e.package} AS props
FOREACH (_ IN CASE kind WHEN 'CALLS' THEN [1] ELSE [] END |
  MERGE (s)-[c:CALLS]->(t) SET c += props)
FOREACH (_ IN CASE kind WHEN 'IMPORTS' THEN [1] ELSE [] END |
  MERGE (s)-[c:IMPORTS]->(t) SET c += props)
FOREACH (_ IN CASE kind WHEN 'INHERITS' THEN [1] ELSE [] END |
  MERGE (s)-[c:INHERITS]->(t) SET c += props)
DELETE r
RETURN count(*) AS linked
