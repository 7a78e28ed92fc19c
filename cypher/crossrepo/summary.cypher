// Cross-repository edges leaving or entering repository $repo.
// Parameters: $repo
CALL () {
  MATCH (:Code {repo: $repo})-[r:CALLS|IMPORTS|INHERITS]->(:Code)
  WHERE r.external_name IS NOT NULL
  RETURN r
  UNION
  MATCH (:Code {repo: $repo})<-[r:CALLS|IMPORTS|INHERITS]-(:Code)
  WHERE r.external_name IS NOT NULL
  RETURN r
}
RETURN count(r) AS edges
