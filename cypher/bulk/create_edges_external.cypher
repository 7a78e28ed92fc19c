// Resolved edges to :External nodes (shared by all repositories, hence MERGEd), on a fresh
// full index. Parameters: $kind, $rows = [{source, target, name, package, props}]
UNWIND $rows AS row
MATCH (s:Code {id: row.source})
MERGE (t:External {qualified_name: row.target})
  ON CREATE SET t.name = row.name, t.package = row.package
CREATE (s)-[r:$($kind)]->(t)
SET r = row.props
