// Public functions and methods outside test code that no test reaches, most called first.
// :param repo => 'shop'
MATCH (n:Function|Method)
WHERE n.repo = $repo AND NOT coalesce(n.test_code, false) AND NOT n.name STARTS WITH '_'
  AND n.test_reach IS NULL
RETURN n.qualified_name AS symbol, n.path AS path, n.start_line AS line,
       COUNT { (n)<-[:CALLS]-() } AS callers
ORDER BY callers DESC, symbol
LIMIT 100
