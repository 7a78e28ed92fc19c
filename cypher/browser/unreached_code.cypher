// Functions and methods with no inbound edge that no convention runs (no entry point, not
// test code): the raw dead-code candidates `graphrag-code dead-code` weighs and explains.
// :param repo => 'shop'
MATCH (n:Function|Method)
WHERE n.repo = $repo AND NOT coalesce(n.test_code, false) AND n.entry_points IS NULL
  AND NOT EXISTS { (n)<-[:CALLS|USES_TYPE|INHERITS]-() } AND n.test_reach IS NULL
  AND NOT EXISTS { (:Function|Method)-[:DEFINES]->(n) }
RETURN n.qualified_name AS symbol, n.path AS path, n.start_line AS line
ORDER BY path, line
