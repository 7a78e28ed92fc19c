// The repository's CONTAINS edges to its modules, on a fresh full index.
// Parameters: $repo, $rows = [{id}]
MATCH (r:Repository {name: $repo})
UNWIND $rows AS row
MATCH (m:Code {id: row.id})
CREATE (r)-[:CONTAINS]->(m)
