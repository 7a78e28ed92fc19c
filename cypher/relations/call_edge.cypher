// The CALLS edge from one node to another node or to an external target, and why it exists
// (`via`: how the call reached the target through a value; null: by its name).
// Parameters: $source (a node id), $target (a node id, or an external's qualified name)
MATCH (a:Code {id: $source})-[r:CALLS]->(b)
WHERE b.id = $target OR (b:External AND b.qualified_name = $target)
RETURN coalesce(b.id, b.qualified_name) AS target, b.qualified_name AS qualified_name,
       b:External AS external, r.resolution AS resolution, r.lines AS lines, r.via AS via
LIMIT 1
