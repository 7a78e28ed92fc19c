// REACHES edges, the graph a test's reach is read from: when the source runs, the target may
// run (its calls with their tier, nested functions, overrides, the protocol methods of a
// built class, a decorator's wrapper), and a test runs its fixtures and set-ups (`via`).
// CREATE, not MERGE: a node's edges are always deleted before its new ones are written.
// Parameters: $rows = [{source, target, props}]  (props: resolution, via)
UNWIND $rows AS row
MATCH (s:Code {id: row.source})
MATCH (t:Code {id: row.target})
CREATE (s)-[r:REACHES]->(t)
SET r = row.props
