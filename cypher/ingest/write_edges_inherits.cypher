// INHERITS edges between two nodes of the graph.
// Parameters: $rows = [{source, target, props}]
UNWIND $rows AS row
MATCH (s:Code {id: row.source})
MATCH (t:Code {id: row.target})
MERGE (s)-[r:INHERITS]->(t)
SET r += row.props
