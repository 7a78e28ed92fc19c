// RAN edges of a test method several classes run (one case per class that inherits it):
// each keeps the cases (runner ids) whose contexts ran the target, so that the tests to run
// name only those classes. As write_ran.cypher otherwise.
// Parameters: $rows = [{test, targets: [{id, cases}]}]
UNWIND $rows AS row
MATCH (t:Code {id: row.test})
UNWIND row.targets AS target
MATCH (n:Code {id: target.id})
CREATE (t)-[:RAN {cases: target.cases}]->(n)
