// One step of a blast radius: the code that calls, imports, subclasses or uses each of the ids
// (edges arriving at them), certain edges and central nodes first, at most $limit_per_node each.
// Parameters: $lists {ids}, $limit_per_node
// Lists travel inside the map $lists: a list parameter's size is part of Neo4j's plan cache
// key (1, 2-10, 11-100, ...), so each size class of a list would be planned again (BENCHMARKS
// §10d, stop 67).
UNWIND $lists.ids AS id
MATCH (n:Code {id: id})
CALL (n) {
  MATCH (n)<-[r:CALLS|IMPORTS|INHERITS|USES_TYPE]-(m:Code)
  WITH m, r
  ORDER BY CASE WHEN r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'] THEN 1 ELSE 0 END, coalesce(m.pagerank, 0) DESC
  LIMIT $limit_per_node
  RETURN m, r
}
RETURN n.id AS from_id, m.id AS id, m.qualified_name AS qualified_name, m.kind AS kind,
       m.path AS path, m.start_line AS start_line, m.end_line AS end_line,
       type(r) AS type, r.resolution AS resolution, r.lines AS lines,
       coalesce(m.pagerank, 0.0) AS pagerank, coalesce(m.test_code, false) AS test_code
