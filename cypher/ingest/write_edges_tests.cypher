// TESTS edges: a test exercises this code (its static call closure, through its fixtures).
// Parameters: $rows = [{source, target, props}]  (props: resolution, distance, via)
UNWIND $rows AS row
MATCH (s:Code {id: row.source})
MATCH (t:Code {id: row.target})
MERGE (s)-[r:TESTS]->(t)
SET r = row.props
