// The source of every module of a repository (dead code counts the other mentions of a name).
// Parameters: $repo
MATCH (m:Module)
WHERE m.repo = $repo
RETURN m.path AS path, m.code AS code, coalesce(m.test_code, false) AS test_code
