// The content hash of each node of a measured file when its coverage was imported: while it
// equals `content_hash`, the RAN edges into the node (or their absence) still hold.
// Parameters: $rows = [{id, hash}]
UNWIND $rows AS row
MATCH (n:Code {id: row.id})
SET n.coverage_hash = row.hash
