// TESTS edges: a test exercises this code (its static call closure, through its fixtures).
// CREATE, not MERGE: a test's edges are always deleted before its closure is written again.
// Parameters: $rows = [{source, target, props}]  (props: resolution, distance, via)
UNWIND $rows AS row
MATCH (s:Code {id: row.source})
MATCH (t:Code {id: row.target})
CREATE (s)-[r:TESTS]->(t)
SET r = row.props
