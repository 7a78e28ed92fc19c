// The vector leg of search/hybrid_search.cypher on Neo4j 2026.01+, for one repository: the
// Cypher 25 SEARCH clause with the repository filter INSIDE the index search (the index is
// created with `WITH [n.repo]`, schema/create_vector_filtered.cypher), so the leg returns the
// $k nearest nodes of $repo however large the other repositories in the index are. The
// searcher puts the lines between the markers in place of the `db.index.vector.queryNodes`
// over-fetch of hybrid_search.cypher, pastes the configured index name in place of
// `code_embedding` (SEARCH takes no parameter for it) and prefixes the query with CYPHER 25.
// Run alone, it is the vector leg by itself.
// Parameters: $embedding, $use_vector, $repo, $candidates (the nearest nodes kept)
CYPHER 25
WITH $embedding AS embedding
WHERE $use_vector AND embedding IS NOT NULL
// BEGIN vector leg
// the filter must stay inside the parentheses: `MATCH (node:Code) WHERE node.repo = $repo
// SEARCH …` is accepted but filters after the search
MATCH (node:Code)
  SEARCH node IN (VECTOR INDEX code_embedding FOR embedding WHERE node.repo = $repo LIMIT $candidates)
  SCORE AS score
WITH node, score
// END vector leg
RETURN node.id AS id, node.repo AS repo, score
ORDER BY score DESC
