// Drop the resolved edges leaving the given nodes, before they are linked again.
// Parameters: $ids
UNWIND $ids AS id
MATCH (n:Code {id: id})-[r:CALLS|IMPORTS|INHERITS|USES_TYPE]->()
DELETE r
