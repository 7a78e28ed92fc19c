// Upsert Class nodes (a node whose kind changed loses its old label).
// Parameters: $rows = [{id, parent, props}], $repo_label (the repository's own label, which
// its full-text index covers: graph/scoping.py)
UNWIND $rows AS row
MERGE (n:Code {id: row.id})
SET n += row.props
REMOVE n:Module:Function:Method
SET n:Symbol:Class:$($repo_label)
