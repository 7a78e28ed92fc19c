// The embedding model recorded for the vector index $name.
// Parameters: $name
MATCH (m:EmbeddingIndex {name: $name})
RETURN m.model AS model, m.dimensions AS dimensions
