// Drop the TESTS edges leaving the given tests, before their closure is written again.
// Parameters: $rows (the ids)
UNWIND $rows AS id
MATCH (:Code {id: id})-[r:TESTS]->()
DELETE r
