// The :External targets another indexed repository may provide: those in $packages reached
// from any repository, and those in $repo_packages reached from $repo (or null).
// Parameters: $packages, $repo, $repo_packages
CALL () {
  MATCH (e:External)
  WHERE e.package IN $packages
  MATCH (s:Code)-[:CALLS|IMPORTS|INHERITS]->(e)
  RETURN s.repo AS repo, e.qualified_name AS name, e.package AS package
  UNION
  MATCH (s:Code {repo: $repo})-[:CALLS|IMPORTS|INHERITS]->(e:External)
  WHERE e.package IN $repo_packages
  RETURN s.repo AS repo, e.qualified_name AS name, e.package AS package
}
RETURN DISTINCT repo, name, package
ORDER BY repo, name
