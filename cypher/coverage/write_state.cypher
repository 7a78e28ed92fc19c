// What the last coverage import of a repository was: its commit, when it was recorded, how
// many tests and edges it gave, the file it came from.
// Parameters: $repo, $state = {coverage_commit, coverage_recorded_at, coverage_imported_at,
// coverage_tests, coverage_edges, coverage_file}
MATCH (r:Repository {name: $repo})
SET r += $state
