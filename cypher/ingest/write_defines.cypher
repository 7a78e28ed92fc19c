// The scope tree: parent -[:DEFINES]-> child.
// Parameters: $rows = [{id, parent}]
UNWIND $rows AS row
MATCH (p:Code {id: row.parent})
MATCH (c:Code {id: row.id})
MERGE (p)-[:DEFINES]->(c)
