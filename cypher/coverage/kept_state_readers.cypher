// The tests that ran code which may read what each of $ids kept when it ran outside every
// test (at import or collection: a registry, a default, a class built once): any code of
// its own module, and any code of a module whose module-level or class-body code calls it
// (or its class, for a constructor) through a certain edge, keeping what it returned. One
// row per such code that some test ran, with those tests, whether it also ran outside every
// test, and the tests of the coverage import (`impact.kept` leaves out what every test ran).
// Parameters: $ids, $resolutions (the certain tiers)
UNWIND $ids AS id
MATCH (n:Code {id: id})
OPTIONAL MATCH (home:Module)-[:DEFINES*1..6]->(n)
OPTIONAL MATCH (made:Class)-[:DEFINES]->(n)
  WHERE n.name IN ['__init__', '__new__', '__post_init__']
WITH id, n, home, [x IN [n, made] WHERE x IS NOT NULL] AS callees
UNWIND callees AS callee
OPTIONAL MATCH (scope:Code)-[c:CALLS]->(callee)
  WHERE (scope:Module OR scope:Class) AND c.resolution IN $resolutions
OPTIONAL MATCH (caller:Module)-[:DEFINES*0..6]->(scope)
WITH id, collect(DISTINCT home) + collect(DISTINCT caller) AS modules
UNWIND modules AS module
WITH module, collect(DISTINCT id) AS ids  // each module's code is read once
MATCH (module)-[:DEFINES*0..6]->(code:Code)<-[:RAN]-(t:Code)
WITH module, ids, code, collect(DISTINCT t.id) AS tests
OPTIONAL MATCH (r:Repository {name: module.repo})
RETURN ids, module.qualified_name AS module, tests,
       coalesce(code.coverage_outside, false) AS outside, r.coverage_tests AS suite
