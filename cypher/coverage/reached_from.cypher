// For each of $ids, which of $entries lead to it through REACHES edges of $resolutions (a
// shortest path of at most 12 steps; a node is its own entry, answered by the caller).
// Parameters: $ids, $entries, $resolutions
UNWIND $ids AS id
MATCH (x:Code {id: id})
UNWIND $entries AS entry
MATCH (s:Code {id: entry})
  WHERE s <> x
MATCH p = shortestPath((s)-[:REACHES*..12]->(x))
  WHERE all(r IN relationships(p) WHERE r.resolution IN $resolutions)
RETURN id, collect(DISTINCT entry) AS entries
