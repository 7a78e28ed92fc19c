// Ids of every code node of a repository.
// Parameters: $repo
MATCH (n:Code {repo: $repo})
RETURN n.id AS id
