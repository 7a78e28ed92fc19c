// Per-node results of linking and ranking.
// Parameters: $rows = [{id, props}]  (unresolved_calls, pagerank, in_degree, out_degree)
UNWIND $rows AS row
MATCH (n:Code {id: row.id})
SET n += row.props
