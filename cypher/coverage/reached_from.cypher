// For each of the ids, which of the entries lead to it through REACHES edges of the resolutions (a
// shortest path of at most 12 steps; a node is its own entry, answered by the caller).
// Parameters: $lists {ids, entries, resolutions}
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.ids AS id
MATCH (x:Code {id: id})
UNWIND $lists.entries AS entry
MATCH (s:Code {id: entry})
  WHERE s <> x
MATCH p = shortestPath((s)-[:REACHES*..12]->(x))
  WHERE all(r IN relationships(p) WHERE r.resolution IN $lists.resolutions)
RETURN id, collect(DISTINCT entry) AS entries
