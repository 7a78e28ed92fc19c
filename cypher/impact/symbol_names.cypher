// How many symbols of a repository bear each name (its definitions, for counting mentions).
// Parameters: $repo
MATCH (s:Symbol)
WHERE s.repo = $repo
RETURN s.name AS name, count(*) AS definitions
