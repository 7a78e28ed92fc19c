// Every document of corpus $corpus with its stored vector (null when none) and that vector's key.
// Parameters: $corpus
MATCH (d:Document {corpus: $corpus})
RETURN d.id AS id, d.embedding AS embedding, d.embedding_model AS embedding_model
