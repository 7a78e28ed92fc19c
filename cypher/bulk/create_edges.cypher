// Resolved edges between two nodes of the graph, on a fresh full index (one row per edge:
// the writer folds rows with the same ends and kind first).
// Parameters: $kind (CALLS, IMPORTS, INHERITS or USES_TYPE), $rows = [{source, target, props}]
UNWIND $rows AS row
MATCH (s:Code {id: row.source})
MATCH (t:Code {id: row.target})
CREATE (s)-[r:$($kind)]->(t)
SET r = row.props
