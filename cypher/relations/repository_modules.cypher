// Path and id of every module (one per indexed file) of a repository: the history benchmark
// maps each search hit to the file it lives in with this.
// Parameters: $repo
MATCH (m:Module {repo: $repo})
RETURN m.path AS path, m.id AS id
ORDER BY path
