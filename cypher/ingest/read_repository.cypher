// A repository's indexing status, the token of its last complete run, the folder it is
// indexed from and the commit it was built from.
// Parameters: $repo
MATCH (r:Repository {name: $repo})
RETURN r.status AS status, r.state_token AS state_token, r.root AS root, r.head AS head
