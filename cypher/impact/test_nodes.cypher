// The test nodes with the given ids, as tests_for answers them.
// Parameters: $lists {ids}
// Lists travel inside the map $lists: a list parameter's size is part of Neo4j's plan cache
// key (1, 2-10, 11-100, ...), so each size class of a list would be planned again (BENCHMARKS
// §10d, stop 67).
UNWIND $lists.ids AS id
MATCH (t:Code {id: id})
RETURN t.id AS id, t.qualified_name AS qualified_name, t.kind AS kind, t.path AS path,
       t.repo AS repo, t.start_line AS start_line, t.end_line AS end_line, t.module AS module,
       t.test_runner AS runner, t.test_cases AS cases
