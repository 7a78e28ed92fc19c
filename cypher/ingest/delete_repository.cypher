// Delete one batch of a repository's nodes (run until it returns 0), then the repository.
// Parameters: $repo, $limit
MATCH (n:Code {repo: $repo})
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
