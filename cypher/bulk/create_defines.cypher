// DEFINES edges from each symbol's parent, on a fresh full index.
// Parameters: $rows = [{id, parent}]
UNWIND $rows AS row
MATCH (p:Code {id: row.parent})
MATCH (c:Code {id: row.id})
CREATE (p)-[:DEFINES]->(c)
