// Record which model and dimension count the vector index $name holds.
// Parameters: $name, $model, $dimensions
MERGE (m:EmbeddingIndex {name: $name})
SET m.model = $model, m.dimensions = $dimensions, m.updated_at = datetime()
