// RAN edges: under coverage, the test ran a line of the target (its innermost function,
// method or class). The commit the coverage was recorded at travels with each edge; the
// target's content hash then is its `coverage_hash` (write_hashes.cypher).
// Parameters: $rows = [{test, target}], $commit
UNWIND $rows AS row
MATCH (t:Code {id: row.test})
MATCH (n:Code {id: row.target})
CREATE (t)-[r:RAN]->(n)
SET r.commit = $commit
