// Create the nodes of a repository that has none yet (a fresh full index): CREATE, no MERGE.
// Parameters: $rows = [{id, props}], $labels (the kind's labels and the repository's own
// label, graph/scoping.py)
UNWIND $rows AS row
CREATE (n:Code {id: row.id})
SET n += row.props, n:$($labels)
