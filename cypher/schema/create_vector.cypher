// The vector index on servers without filtered vector search (Neo4j 5.26, 2025.x): search
// filters by repository after the index search (search/hybrid_search.cypher over-fetches).
// Parameters: $vector_index, $dimensions
CREATE VECTOR INDEX $vector_index IF NOT EXISTS
FOR (n:Code) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
