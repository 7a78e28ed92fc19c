// Repository -[:CONTAINS]-> Module for every module row.
// Parameters: $repo, $rows = [{id}]
MATCH (r:Repository {name: $repo})
UNWIND $rows AS row
MATCH (m:Code {id: row.id})
MERGE (r)-[:CONTAINS]->(m)
