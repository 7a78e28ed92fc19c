// The tests that exercise a function, method or class: the tests from which a chain of
// REACHES edges (calls, fixtures, set-ups) leads to it or to one of its methods, nearest
// first, with the weakest tier on the nearest chain. Up to 5 steps here, to stay quick on a
// large graph; `graphrag-code tests-for` walks the whole graph.
// :param name => 'shop.storage.sqlite.SqliteStorage.save'
MATCH (target:Code {qualified_name: $name})-[:DEFINES*0..1]->(member:Code)
MATCH chain = (test:Code {test_role: 'test'})-[:REACHES*1..5]->(member)
WITH test, chain ORDER BY length(chain)
WITH test, collect(chain)[0] AS nearest
RETURN test.qualified_name AS test, test.path AS path, length(nearest) AS distance,
       [r IN relationships(nearest) | r.resolution] AS resolutions,
       relationships(nearest)[0].via AS through
ORDER BY distance, test
LIMIT 200
