// Both legs of the hybrid document search in one round trip; fusion happens in Python.
// A leg whose input is null is skipped (an empty Lucene query would not parse).
// The indexes cover every corpus and cannot filter, so each leg fetches $fetch candidates
// and keeps the best $depth of corpus $corpus.
// Parameters: $corpus, $fulltext_index, $lucene, $vector_index, $vector, $fetch, $depth
CALL () {
  WITH $lucene AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes($fulltext_index, lucene, {limit: $fetch})
  YIELD node, score
  WHERE node.corpus = $corpus
  WITH node, score ORDER BY score DESC, node.id LIMIT $depth
  RETURN collect({id: node.id, score: score}) AS text_hits
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL
  CALL db.index.vector.queryNodes($vector_index, $fetch, vector)
  YIELD node, score
  WHERE node.corpus = $corpus
  WITH node, score ORDER BY score DESC, node.id LIMIT $depth
  RETURN collect({id: node.id, score: score}) AS vector_hits
}
RETURN text_hits, vector_hits
