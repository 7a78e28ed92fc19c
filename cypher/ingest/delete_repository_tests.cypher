// Delete one batch of a repository's TESTS edges (run until it returns 0): before a full
// rewrite of its closures, and before its nodes are deleted (a hub may hold thousands).
// Parameters: $repo, $limit
MATCH (t:Code {repo: $repo})-[r:TESTS]->()
WITH r LIMIT $limit
DELETE r
RETURN count(*) AS deleted
