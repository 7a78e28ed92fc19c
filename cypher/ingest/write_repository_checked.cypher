// A run that found nothing changed since the complete run `$run` records the check: the
// repository's root, git head and time, as a run that wrote would (write_repository_done).
// Parameters: $repo, $run, $root, $head
MATCH (r:Repository {name: $repo})
WHERE r.status = 'complete' AND r.state_token = $run
SET r.root = $root, r.head = $head, r.indexed_at = datetime()
