// The nodes an earlier coverage import measured (they keep its `coverage_hash`): the only
// targets of the repository's RAN edges.
// Parameters: $repo
MATCH (n:Code)
WHERE n.repo = $repo AND n.coverage_hash IS NOT NULL
RETURN n.id AS id
