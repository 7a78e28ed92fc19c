// Schema of :Document, the generic text documents (harness.documents). Idempotent.
// Parameters: $vector_index, $dimensions, $quantization
CREATE CONSTRAINT document_key IF NOT EXISTS FOR (d:Document) REQUIRE (d.corpus, d.id) IS UNIQUE;
CREATE INDEX document_corpus IF NOT EXISTS FOR (d:Document) ON (d.corpus);
CREATE VECTOR INDEX $vector_index IF NOT EXISTS
FOR (d:Document) ON d.embedding
OPTIONS {indexConfig: {
  `vector.dimensions`: $dimensions,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.enabled`: $quantization
}};
