// IMPORTS edges to targets outside the repository (:External, shared by all repositories).
// Parameters: $rows = [{source, target, package, props}]
UNWIND $rows AS row
MATCH (s:Code {id: row.source})
MERGE (t:External {qualified_name: row.target})
  ON CREATE SET t.name = row.name, t.package = row.package
MERGE (s)-[r:IMPORTS]->(t)
SET r += row.props
