// For each method of $ids whose class has a member that ran outside every test (an instance
// made at import, shared by every later test), the class's other methods and their code,
// with the language of the method.
// Parameters: $ids
UNWIND $ids AS id
MATCH (owner:Class)-[:DEFINES]->(n:Code {id: id})
MATCH (owner)-[:DEFINES]->(m:Code)
WITH id, n, collect(m) AS members
WHERE any(m IN members WHERE coalesce(m.coverage_outside, false))
UNWIND members AS m
WITH id, n, m WHERE m <> n AND m.code IS NOT NULL
RETURN id, n.name AS name, m.id AS member, m.code AS code, n.language AS language
