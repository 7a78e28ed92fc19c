// Drop the given resolved edges: the keys an incremental run's edge diff found gone or changed
// (`ingest/edge_diff.py`). An external edge is keyed by the qualified name it points at: an
// :External node, or the node of another repository that provides that name.
// Parameters: $rows = [{kind, source, target, external}]
UNWIND $rows AS row
MATCH (s:Code {id: row.source})-[r]->(t)
WHERE type(r) = row.kind
  AND CASE WHEN row.external
      THEN t.qualified_name = row.target AND (t:External OR t.repo <> s.repo)
      ELSE t.id = row.target END
DELETE r
