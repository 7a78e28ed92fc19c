// For each method of $ids, the methods of its class (itself among them) and their code, with
// the class's language: what `impact.singletons` reads for a singleton its class keeps and
// sets up on first use.
// Parameters: $ids
UNWIND $ids AS id
MATCH (owner:Class)-[:DEFINES]->(:Code {id: id})
MATCH (owner)-[:DEFINES]->(m:Code)
WHERE m.code IS NOT NULL
RETURN id, m.id AS member, m.name AS name, m.code AS code, owner.language AS language
