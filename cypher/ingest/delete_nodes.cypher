// Remove nodes (and their relationships) that no longer exist in the source.
// Parameters: $ids
UNWIND $ids AS id
MATCH (n:Code {id: id})
DETACH DELETE n
