// Remove stored vectors in batches (used when the embedding model changes).
// Parameters: $limit
MATCH (n:Code) WHERE n.embedding IS NOT NULL
WITH n LIMIT $limit
REMOVE n.embedding, n.embedded_hash, n.embedded_model
RETURN count(n) AS cleared
