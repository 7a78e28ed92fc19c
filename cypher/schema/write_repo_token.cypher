// Give up to $limit nodes of repository $repo their `repo_token` (run until it writes none).
// Parameters: $repo, $token, $limit
MATCH (n:Code {repo: $repo}) WHERE n.repo_token IS NULL
WITH n LIMIT $limit
SET n.repo_token = $token
RETURN count(n) AS written
