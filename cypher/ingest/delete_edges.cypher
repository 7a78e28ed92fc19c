// Drop the given resolved edges: the keys an incremental run's edge diff found gone or changed
// (`ingest/edge_diff.py`). An external edge is keyed by the qualified name it points at: an
// :External node, or the node of another repository the cross stage linked it to, which
// remembers that name as `external_name` (a re-exported name differs from the node's own).
// Parameters: $rows = [{kind, source, target, external}]
UNWIND $rows AS row
MATCH (s:Code {id: row.source})-[r]->(t)
WHERE type(r) = row.kind
  AND CASE WHEN row.external
      THEN (t:External AND t.qualified_name = row.target) OR r.external_name = row.target
      ELSE t.id = row.target END
DELETE r
