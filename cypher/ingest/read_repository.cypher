// A repository's indexing status and the token of its last complete run.
// Parameters: $repo
MATCH (r:Repository {name: $repo})
RETURN r.status AS status, r.state_token AS state_token, r.root AS root
