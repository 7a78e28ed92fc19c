// The content hash of each node of a measured file when its coverage was imported: while it
// equals `content_hash`, the RAN edges into the node (or their absence) still hold; and
// whether it also ran outside every test (`coverage_outside`: at import or collection).
// Parameters: $rows = [{id, hash, outside}]
UNWIND $rows AS row
MATCH (n:Code {id: row.id})
SET n.coverage_hash = row.hash, n.coverage_outside = CASE WHEN row.outside THEN true END
