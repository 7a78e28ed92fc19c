// Delete one batch of a repository's REACHES edges (run until it returns 0): before a full
// rewrite of its reach graph, and before its nodes are deleted (a hub may hold thousands).
// TESTS edges, which versions before the reach graph stored per (test, node) pair, go too.
// Parameters: $repo, $limit
MATCH (n:Code {repo: $repo})-[r:REACHES|TESTS]->()
WITH r LIMIT $limit
DELETE r
RETURN count(*) AS deleted
