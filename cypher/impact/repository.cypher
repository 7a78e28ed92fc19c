// What the graph holds of a repository: where and from which commit it was last indexed.
// Parameters: $repo
MATCH (r:Repository {name: $repo})
RETURN r.name AS name, r.root AS root, r.head AS head, r.status AS status,
       toString(r.indexed_at) AS indexed_at
