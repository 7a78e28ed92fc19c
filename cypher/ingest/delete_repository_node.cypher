// Remove the :Repository node itself (after its code nodes are gone).
// Parameters: $repo
MATCH (r:Repository {name: $repo})
DETACH DELETE r
