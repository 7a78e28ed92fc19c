// One breadth-first step of a relationship query: the neighbours of $ids along $types in
// $direction ('out': edges leaving the node, 'in': edges arriving at it).
// With $within (a repository name, or null), the step never leaves that repository (its
// :External targets still count); without it, edges into other indexed repositories are
// followed like any other. With $tiers (a list of resolutions, or null), only edges of those
// tiers (and edges without one) are followed.
// Parameters: $ids, $types, $direction, $limit_per_node, $within, $tiers
UNWIND $ids AS id
MATCH (n:Code {id: id})
CALL (n) {
  CALL (n) {
    WITH n WHERE $direction = 'out'
    MATCH (n)-[r]->(m)
    WHERE type(r) IN $types AND (m:Code OR m:External)
      AND ($within IS NULL OR m:External OR m.repo = $within)
    RETURN m, r
    UNION
    WITH n WHERE $direction = 'in'
    MATCH (n)<-[r]-(m:Code)
    WHERE type(r) IN $types AND ($within IS NULL OR m.repo = $within)
    RETURN m, r
  }
  WITH m, r
  WHERE $tiers IS NULL OR r.resolution IS NULL OR r.resolution IN $tiers
  ORDER BY CASE WHEN r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'] THEN 1 ELSE 0 END, coalesce(m.pagerank, 0) DESC
  LIMIT $limit_per_node
  RETURN m, r
}
RETURN n.id AS from_id, coalesce(m.id, m.qualified_name) AS id, m:External AS external,
       m.kind AS kind, m.qualified_name AS qualified_name, m.path AS path,
       m.start_line AS start_line, m.end_line AS end_line, m.repo AS repo,
       type(r) AS type, r.resolution AS resolution, r.lines AS lines, r.via AS via,
       m.unresolved_calls AS unresolved_calls
