// The tests that exercise a function, method or class (TESTS edges: a test's static call
// closure through its fixtures and set-ups), nearest first.
// :param name => 'shop.storage.sqlite.SqliteStorage.save'
MATCH (target:Code {qualified_name: $name})
OPTIONAL MATCH (target)-[:DEFINES*0..1]->(member:Code)<-[r:TESTS]-(test:Code)
RETURN test.qualified_name AS test, test.path AS path, min(r.distance) AS distance,
       collect(DISTINCT r.resolution) AS resolutions, collect(DISTINCT r.via) AS through
ORDER BY distance, test
