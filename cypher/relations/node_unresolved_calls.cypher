// How many call sites inside a node could not be resolved.
// Parameters: $id
MATCH (n:Code {id: $id})
RETURN coalesce(n.unresolved_calls, 0) AS n
