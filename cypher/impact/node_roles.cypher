// The test role of each of $ids (a changed test runs itself).
// Parameters: $ids
UNWIND $ids AS id
MATCH (n:Code {id: id})
RETURN n.id AS id, n.qualified_name AS qualified_name, n.kind AS kind, n.path AS path,
       n.repo AS repo, n.start_line AS start_line, n.end_line AS end_line,
       coalesce(n.test_code, false) AS test_code, n.test_role AS test_role
