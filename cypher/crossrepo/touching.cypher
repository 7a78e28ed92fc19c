// Cross-repository edges touching repository $repo, found through the indexes on
// `external_name`, which only cross edges carry (schema/create.cypher): one row for those
// leaving it (package null) and one per external package for those entering it. What the
// cross stage reads first, to send no release that has nothing to release (graph/crossrepo.py).
// Parameters: $repo
CALL () {
  MATCH (s:Code)-[r:CALLS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR t.repo = $repo)
  RETURN r, CASE WHEN t.repo = $repo THEN r.external_package END AS package
  UNION
  MATCH (s:Code)-[r:IMPORTS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR t.repo = $repo)
  RETURN r, CASE WHEN t.repo = $repo THEN r.external_package END AS package
  UNION
  MATCH (s:Code)-[r:INHERITS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR t.repo = $repo)
  RETURN r, CASE WHEN t.repo = $repo THEN r.external_package END AS package
}
RETURN package, count(r) AS edges
