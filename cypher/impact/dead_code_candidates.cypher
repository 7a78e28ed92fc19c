// Functions, methods and classes of a repository outside test code with no inbound CALLS,
// USES_TYPE or INHERITS edge of any tier, no import by name and no test that ran it under
// imported coverage (a RAN edge: it ran, so it is alive): dead-code candidates, with
// what may still reach them (entry points, an overridden base method that is called, the
// best tier by which a test reaches them, decorators). Nested functions are left out: their outer function
// uses them. A class counts as used when any of its methods is.
// Parameters: $repo
MATCH (n:Symbol)
WHERE n.repo = $repo AND NOT coalesce(n.test_code, false)
  AND NOT EXISTS { (n)<-[:CALLS|USES_TYPE|INHERITS|RAN]-() }
  AND NOT EXISTS { (:Function|Method)-[:DEFINES]->(n) }
OPTIONAL MATCH (parent:Code)-[:DEFINES]->(n)
WITH n, parent
WHERE NOT (n:Class AND EXISTS { (n)-[:DEFINES]->(:Method)<-[:CALLS|RAN]-() })
  AND NOT (parent:Module AND EXISTS {
    MATCH (:Code)-[imports:IMPORTS]->(parent) WHERE n.name IN imports.names
  })
OPTIONAL MATCH (parent)-[:INHERITS*1..6]->(base:Class)-[:DEFINES]->(overridden:Method {name: n.name})
WHERE n:Method
WITH n, parent, collect(DISTINCT overridden) AS overridden
RETURN n.id AS id, n.qualified_name AS qualified_name, n.name AS name, n.kind AS kind,
       n.path AS path, n.repo AS repo, n.start_line AS start_line, n.end_line AS end_line,
       n.language AS language, coalesce(n.entry_points, []) AS entry_points,
       coalesce(n.decorators, []) AS decorators, parent.kind AS parent_kind,
       parent.name AS parent_name,
       [o IN overridden WHERE EXISTS { (o)<-[:CALLS]-() } OR o.entry_points IS NOT NULL
        | o.qualified_name] AS overrides_used,
       n.test_reach AS test_reach
ORDER BY path, start_line
