// Cross-repository edges leaving or entering repository $repo, found through the indexes on
// `external_name`, which only cross edges carry (schema/create.cypher): one per type.
// Parameters: $repo
CALL () {
  MATCH (s:Code)-[r:CALLS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR t.repo = $repo)
  RETURN r
  UNION
  MATCH (s:Code)-[r:IMPORTS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR t.repo = $repo)
  RETURN r
  UNION
  MATCH (s:Code)-[r:INHERITS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR t.repo = $repo)
  RETURN r
}
RETURN count(r) AS edges
