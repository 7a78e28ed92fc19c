// The vector leg of search/hybrid_search.cypher on Neo4j 2026.01+ across every repository
// ($repo null). A SEARCH filter cannot be optional (`$repo IS NULL OR …` is rejected), hence a
// text of its own; see vector_search_repo.cypher for how the searcher uses it.
// Parameters: $embedding, $use_vector, $candidates (the nearest nodes kept)
CYPHER 25
WITH $embedding AS embedding
WHERE $use_vector AND embedding IS NOT NULL
// BEGIN vector leg
MATCH (node:Code)
  SEARCH node IN (VECTOR INDEX code_embedding FOR embedding LIMIT $candidates)
  SCORE AS score
WITH node, score
// END vector leg
RETURN node.id AS id, node.repo AS repo, score
ORDER BY score DESC
