// RAN edges: under coverage, the test ran a line of each target (its innermost function,
// method or class). Rows are grouped by test: one lookup of the test per row. The commit
// and time of the run are the repository's (write_state.cypher); each target's content
// hash then is its `coverage_hash` (write_hashes.cypher).
// Parameters: $rows = [{test, targets}]
UNWIND $rows AS row
MATCH (t:Code {id: row.test})
UNWIND row.targets AS target
MATCH (n:Code {id: target})
CREATE (t)-[:RAN]->(n)
