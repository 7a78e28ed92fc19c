// The tests defined inside the given nodes (a changed test class runs its tests).
// Parameters: $lists {ids}
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.ids AS id
MATCH (:Code {id: id})-[:DEFINES*0..3]->(t:Code {test_role: 'test'})
RETURN DISTINCT id AS target, t.id AS id, t.qualified_name AS qualified_name, t.kind AS kind,
       t.path AS path, t.repo AS repo, t.start_line AS start_line, t.end_line AS end_line,
       t.module AS module, t.test_runner AS runner, t.test_cases AS cases
