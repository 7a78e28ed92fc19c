// Forget the tests an earlier coverage import added because the index has no node for them
// (`coverage_test`: doctests of a text file), with their RAN edges.
// Parameters: $repo
MATCH (t:Code)
WHERE t.repo = $repo AND t.coverage_test = true
DETACH DELETE t
