// The source code stored on the given nodes.
// Parameters: $ids
UNWIND $ids AS id
MATCH (n:Code {id: id})
RETURN n.id AS id, n.code AS code
