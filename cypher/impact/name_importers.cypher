// Modules importing a module-level symbol by name (`from pkg.mod import name`): its
// importers, which IMPORTS edges record against the defining module.
// Parameters: $lists {rows: [{id, module, name}]}  (the symbol, its module's id, its short name)
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.rows AS row
MATCH (m:Code)-[r:IMPORTS]->(:Module {id: row.module})
WHERE row.name IN r.names
RETURN row.id AS from_id, m.id AS id, m.qualified_name AS qualified_name, m.kind AS kind,
       m.path AS path, m.start_line AS start_line, m.end_line AS end_line,
       'IMPORTS' AS type, null AS resolution, r.lines AS lines,
       coalesce(m.pagerank, 0.0) AS pagerank, coalesce(m.test_code, false) AS test_code
