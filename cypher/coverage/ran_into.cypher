// The tests that ran each of $ids under coverage, with the node's content hash now and at
// the import (none: the coverage does not know the node), and whether it also ran outside
// every test.
// Parameters: $ids
UNWIND $ids AS id
MATCH (n:Code {id: id})
OPTIONAL MATCH (t:Code)-[:RAN]->(n)
RETURN id, n.content_hash AS content_hash, n.coverage_hash AS coverage_hash,
       coalesce(n.coverage_outside, false) AS outside, collect(t.id) AS tests
