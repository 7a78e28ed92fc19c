// The test nodes with the given ids, as tests_for answers them.
// Parameters: $ids
UNWIND $ids AS id
MATCH (t:Code {id: id})
RETURN t.id AS id, t.qualified_name AS qualified_name, t.kind AS kind, t.path AS path,
       t.repo AS repo, t.start_line AS start_line, t.end_line AS end_line, t.module AS module,
       t.test_runner AS runner, t.test_cases AS cases
