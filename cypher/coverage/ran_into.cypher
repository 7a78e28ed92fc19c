// The tests that ran each of the ids under coverage, with the node's content hash now and at
// the import (none: the coverage does not know the node), and whether it also ran outside
// every test; for a test method several classes run, the cases that ran it (write_ran_cases).
// Parameters: $lists {ids}
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.ids AS id
MATCH (n:Code {id: id})
OPTIONAL MATCH (t:Code)-[r:RAN]->(n)
RETURN id, n.content_hash AS content_hash, n.coverage_hash AS coverage_hash,
       coalesce(n.coverage_outside, false) AS outside, collect(t.id) AS tests,
       collect(CASE WHEN r.cases IS NULL THEN null ELSE {test: t.id, cases: r.cases} END)
         AS cases
