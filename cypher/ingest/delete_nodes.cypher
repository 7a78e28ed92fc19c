// Remove nodes (and their relationships) that no longer exist in the source.
// Parameters: $rows (the ids)
UNWIND $rows AS id
MATCH (n:Code {id: id})
DETACH DELETE n
