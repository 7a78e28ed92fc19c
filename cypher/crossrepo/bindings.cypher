// Cross-repository edges counted by the repository they leave, the package they name and the
// repository they end at: those leaving $repo and those naming a package in $packages. A
// pass reads them before and after to say what it changed (graph/crossedges.py) and which
// ambiguous bindings to keep. Found through the indexes on `external_name`, which only cross
// edges carry (schema/create.cypher), one per type.
// Parameters: $repo, $packages
CALL () {
  MATCH (s:Code)-[r:CALLS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR r.external_package IN $packages)
  RETURN s.repo AS source, r.external_package AS package, t.repo AS target
  UNION ALL
  MATCH (s:Code)-[r:IMPORTS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR r.external_package IN $packages)
  RETURN s.repo AS source, r.external_package AS package, t.repo AS target
  UNION ALL
  MATCH (s:Code)-[r:INHERITS]->(t:Code)
  WHERE r.external_name IS NOT NULL AND (s.repo = $repo OR r.external_package IN $packages)
  RETURN s.repo AS source, r.external_package AS package, t.repo AS target
}
RETURN source, package, target, count(*) AS edges
ORDER BY source, package, target
