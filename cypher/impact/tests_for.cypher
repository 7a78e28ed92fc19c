// The tests that exercise any of $ids (TESTS edges), with how each reaches it.
// Parameters: $ids
UNWIND $ids AS id
MATCH (t:Code)-[r:TESTS]->(n:Code {id: id})
RETURN n.id AS target, t.id AS id, t.qualified_name AS qualified_name, t.kind AS kind,
       t.path AS path, t.repo AS repo, t.start_line AS start_line, t.end_line AS end_line,
       t.module AS module,
       r.distance AS distance, r.resolution AS resolution, r.via AS via
ORDER BY distance, qualified_name
