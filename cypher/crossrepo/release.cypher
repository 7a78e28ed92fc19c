// Turn one batch of cross-repository edges back into edges to their :External target (run
// until it returns 0): those into the nodes $ids (about to be deleted), those into
// repository $into (or null) whose external package is in $packages (null: all of them),
// and those leaving repository $from (or null). An edge to the :External written since (a
// re-linked file) is the newer one and stays as it is. The edges into $into and out of $from
// are found through the indexes on `external_name`, which only cross edges carry
// (schema/create.cypher), one per type: not by reading every relationship of the repository.
// Parameters: $ids, $into, $packages, $from, $limit
CALL () {
  UNWIND coalesce($ids, []) AS id
  MATCH (t:Code {id: id})<-[r:CALLS|IMPORTS|INHERITS]-(s:Code)
  WHERE r.external_name IS NOT NULL
  RETURN s, r
  UNION
  MATCH (s:Code)-[r:CALLS]->(t:Code)
  WHERE r.external_name IS NOT NULL
    AND ((t.repo = $into AND ($packages IS NULL OR r.external_package IN $packages))
         OR s.repo = $from)
  RETURN s, r
  UNION
  MATCH (s:Code)-[r:IMPORTS]->(t:Code)
  WHERE r.external_name IS NOT NULL
    AND ((t.repo = $into AND ($packages IS NULL OR r.external_package IN $packages))
         OR s.repo = $from)
  RETURN s, r
  UNION
  MATCH (s:Code)-[r:INHERITS]->(t:Code)
  WHERE r.external_name IS NOT NULL
    AND ((t.repo = $into AND ($packages IS NULL OR r.external_package IN $packages))
         OR s.repo = $from)
  RETURN s, r
}
WITH s, r LIMIT $limit
MERGE (e:External {qualified_name: r.external_name})
  ON CREATE SET e.name = last(split(r.external_name, '.')), e.package = r.external_package
WITH s, r, e, type(r) AS kind, properties(r) AS old
WITH s, r, e, kind, old {.*, external_name: null, external_package: null} AS props
FOREACH (_ IN CASE kind WHEN 'CALLS' THEN [1] ELSE [] END |
  MERGE (s)-[x:CALLS]->(e) ON CREATE SET x += props)
FOREACH (_ IN CASE kind WHEN 'IMPORTS' THEN [1] ELSE [] END |
  MERGE (s)-[x:IMPORTS]->(e) ON CREATE SET x += props)
FOREACH (_ IN CASE kind WHEN 'INHERITS' THEN [1] ELSE [] END |
  MERGE (s)-[x:INHERITS]->(e) ON CREATE SET x += props)
DELETE r
RETURN count(*) AS released
