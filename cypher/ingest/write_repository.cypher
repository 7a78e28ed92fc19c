// Create or update a repository and mark an indexing run as started.
// Parameters: $repo, $root, $run
MERGE (r:Repository {name: $repo})
SET r.root = $root, r.status = 'indexing', r.run = $run, r.started_at = datetime()
