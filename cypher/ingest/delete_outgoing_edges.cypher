// Drop the resolved edges leaving the given nodes, before they are linked again.
// Parameters: $rows (the ids)
UNWIND $rows AS id
MATCH (n:Code {id: id})-[r:CALLS|IMPORTS|INHERITS|USES_TYPE]->()
DELETE r
