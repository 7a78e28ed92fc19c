// Mark an indexing run as complete; `state_token` ties the graph to the local incremental cache.
// Parameters: $repo, $run, $head, $files, $symbols
MATCH (r:Repository {name: $repo})
SET r.status = 'complete', r.state_token = $run, r.head = $head, r.indexed_at = datetime(),
    r.files = $files, r.symbols = $symbols
