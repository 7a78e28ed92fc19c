// A node and everything it defines (a module's classes and functions, a class's methods).
// Parameters: $id
MATCH (n:Code {id: $id})
OPTIONAL MATCH (n)-[:DEFINES*1..6]->(d:Code)
WITH n, collect(DISTINCT d.id) AS inner
RETURN [n.id] + inner AS ids
