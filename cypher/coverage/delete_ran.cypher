// Drop one batch of a repository's RAN edges (run until it returns 0): a new import
// replaces the old one.
// Parameters: $repo, $limit
MATCH (n:Code)<-[r:RAN]-()
WHERE n.repo = $repo
WITH r LIMIT $limit
DELETE r
RETURN count(*) AS deleted
