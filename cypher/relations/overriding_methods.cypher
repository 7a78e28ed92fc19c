// The methods that override each method of $ids in the subclasses of its class (nearest
// first, at most $limit each): a change to the base method reaches their callers too.
// Parameters: $ids, $limit
UNWIND $ids AS id
MATCH (m:Code {id: id})
CALL (m) {
  MATCH (m)<-[:DEFINES]-(:Class)<-[inherits:INHERITS*1..6]-(:Class)
        -[:DEFINES]->(override:Code {name: m.name})
  WHERE m.kind = 'Method' AND override.kind = 'Method'
  WITH override, min(size(inherits)) AS distance
  ORDER BY distance, override.qualified_name
  LIMIT $limit
  RETURN override
}
RETURN m.id AS from_id, override.id AS id, override.qualified_name AS qualified_name,
       override.kind AS kind, override.repo AS repo, override.path AS path,
       override.start_line AS start_line, override.end_line AS end_line
