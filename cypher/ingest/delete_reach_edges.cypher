// Drop the REACHES edges leaving the given nodes, before their new ones are written.
// Parameters: $rows (the ids)
UNWIND $rows AS id
MATCH (:Code {id: id})-[r:REACHES]->()
DELETE r
