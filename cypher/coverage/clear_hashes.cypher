// Forget one batch of the content hashes an earlier coverage import kept (run until it
// returns 0).
// Parameters: $repo, $limit
MATCH (n:Code)
WHERE n.repo = $repo AND n.coverage_hash IS NOT NULL
WITH n LIMIT $limit
REMOVE n.coverage_hash
RETURN count(*) AS deleted
