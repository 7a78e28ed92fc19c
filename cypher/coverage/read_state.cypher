// The last coverage import of a repository (all null when none was).
// Parameters: $repo
MATCH (r:Repository {name: $repo})
RETURN r.coverage_commit AS commit, r.coverage_recorded_at AS recorded_at,
       r.coverage_imported_at AS imported_at, r.coverage_tests AS tests,
       r.coverage_edges AS edges, r.coverage_file AS file
