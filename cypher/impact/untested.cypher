// Public functions, methods and classes outside test code that no test reaches (no
// test_reach on them or, for a class, on any of its methods) and no test ran under imported
// coverage (no RAN edge into them or their methods), most central first.
// Parameters: $repo, $limit
MATCH (n:Symbol)
WHERE n.repo = $repo AND NOT coalesce(n.test_code, false) AND NOT n.name STARTS WITH '_'
  AND n.test_reach IS NULL
  AND NOT EXISTS { (n)-[:DEFINES]->(m:Method) WHERE m.test_reach IS NOT NULL }
  AND NOT EXISTS { (n)<-[:RAN]-() } AND NOT EXISTS { (n)-[:DEFINES]->(:Method)<-[:RAN]-() }
  AND NOT EXISTS { (:Function|Method)-[:DEFINES]->(n) }
  AND NOT EXISTS { (owner:Class)-[:DEFINES]->(n) WHERE owner.name STARTS WITH '_' }
RETURN n.id AS id, n.qualified_name AS qualified_name, n.kind AS kind, n.path AS path,
       n.repo AS repo, n.start_line AS start_line, n.end_line AS end_line,
       coalesce(n.pagerank, 0.0) AS pagerank, COUNT { (n)<-[:CALLS]-() } AS callers
ORDER BY pagerank DESC, qualified_name
LIMIT $limit
