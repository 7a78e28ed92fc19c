// Upsert Module nodes (a node whose kind changed loses its old label).
// Parameters: $rows = [{id, parent, props}], $repo_label (the repository's own label, which
// its full-text index covers: graph/scoping.py)
UNWIND $rows AS row
MERGE (n:Code {id: row.id})
SET n += row.props
REMOVE n:Class:Function:Method
SET n:Module:$($repo_label)
