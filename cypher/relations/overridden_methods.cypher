// The methods a method overrides: same name, defined in a class its class inherits from
// (nearest first). A call to one of them may dispatch to the overriding method at run time.
// Languages whose linker stores those calls as CALLS edges of tier 'dispatch' ($stored, e.g.
// Python's languages/python/dispatch.py) are not listed here.
// Parameters: $id, $stored (language names)
MATCH (m:Code {id: $id})<-[:DEFINES]-(:Class)-[inherits:INHERITS*1..6]->(base:Class)
      -[:DEFINES]->(overridden:Code {name: m.name})
WHERE m.kind = 'Method' AND overridden.kind = 'Method' AND NOT coalesce(m.language, '') IN $stored
WITH overridden, min(size(inherits)) AS distance
RETURN overridden.id AS id, overridden.qualified_name AS qualified_name,
       overridden.kind AS kind, overridden.repo AS repo, overridden.path AS path,
       overridden.start_line AS start_line, overridden.end_line AS end_line
ORDER BY distance, qualified_name
