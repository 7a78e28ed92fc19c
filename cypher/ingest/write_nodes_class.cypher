// Upsert Class nodes (a node whose kind changed loses its old label).
// Parameters: $rows = [{id, parent, props}]
UNWIND $rows AS row
MERGE (n:Code {id: row.id})
SET n += row.props
REMOVE n:Module:Function:Method
SET n:Symbol:Class
