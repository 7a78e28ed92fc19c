// What is stored for corpus $corpus: the content hash and the key of the stored vector.
// Parameters: $corpus
MATCH (d:Document {corpus: $corpus})
RETURN d.id AS id, d.content_hash AS content_hash,
       d.embedding_model AS embedding_model, d.embedded_hash AS embedded_hash
