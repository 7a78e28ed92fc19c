// Remove up to $limit vectors (before the vector index is rebuilt for another dimension count).
// Parameters: $limit
MATCH (d:Document) WHERE d.embedding IS NOT NULL
WITH d LIMIT $limit
REMOVE d.embedding, d.embedding_model, d.embedded_hash
RETURN count(d) AS cleared
