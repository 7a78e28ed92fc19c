// The vector index on Neo4j 2026.01+: `repo` is a filter property (`WITH [n.repo]`, Cypher
// 25 only), so search/vector_search_repo.cypher filters by repository inside the index search.
// Quantization is set explicitly ($vector_quantization: 'NONE' by default, or 'SCALAR'): from
// 2026 a new index defaults to BINARY, which kept 55 % of the exact top 10 on random vectors;
// NONE keeps exact scores (BENCHMARKS.md §9).
// Parameters: $vector_index, $dimensions, $vector_quantization
CYPHER 25
CREATE VECTOR INDEX $vector_index IF NOT EXISTS
FOR (n:Code) ON n.embedding
WITH [n.repo]
OPTIONS {indexConfig: {
  `vector.dimensions`: $dimensions,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.type`: $vector_quantization
}}
