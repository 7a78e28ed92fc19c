// Forget what an earlier coverage import said of these nodes: their `coverage_hash` and the
// RAN edges into them (a new import replaces the old one).
// Parameters: $rows (the ids)
UNWIND $rows AS id
MATCH (n:Code {id: id})
REMOVE n.coverage_hash, n.coverage_outside
WITH n
MATCH (n)<-[r:RAN]-()
DELETE r
