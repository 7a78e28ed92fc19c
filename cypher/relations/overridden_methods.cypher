// The methods a method overrides: same name, defined in a class its class inherits from
// (nearest first). A call to one of them may dispatch to the overriding method at run time.
// Parameters: $id
MATCH (m:Code {id: $id})<-[:DEFINES]-(:Class)-[inherits:INHERITS*1..6]->(base:Class)
      -[:DEFINES]->(overridden:Code {name: m.name})
WHERE m.kind = 'Method' AND overridden.kind = 'Method'
WITH overridden, min(size(inherits)) AS distance
RETURN overridden.id AS id, overridden.qualified_name AS qualified_name
ORDER BY distance, qualified_name
