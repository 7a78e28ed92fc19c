// The tests that ran code which may read what each of $ids kept when it ran outside every
// test (at import or collection: a registry, a default, a class built once): any code of
// its own module, and any code of a module whose module-level or class-body code calls it
// (or its class, for a constructor) through certain edges, directly or through code that
// ran outside every test too (a registry built by a function the module calls), keeping
// what it returned; a possible edge counts when it ends at a function that ran outside
// every test (the coverage confirms a call at import the linking could not resolve:
// toolz's `functoolz._sigs.create_signature_registry()`). Two kinds of caller are read by tests that need not run their code
// (stop 65, part 3): a test module's module-level calls (the values a `parametrize` mark
// passes, built at collection) are read by the module's tests, and a package's `__init__`
// runs at the import of any module of the package, so what its calls keep (or the import
// they break) is read by the tests of every test module importing the package. One row per
// such code that some test ran (or per such test module), with those tests, whether it also
// ran outside every test, and the tests of the coverage import (`impact.kept` leaves out
// what every test ran).
// Parameters: $ids, $resolutions (the certain tiers)
UNWIND $ids AS id
MATCH (n:Code {id: id})
OPTIONAL MATCH (home:Module)-[:DEFINES*1..6]->(n)
OPTIONAL MATCH (made:Class)-[:DEFINES]->(n)
  WHERE n.name IN ['__init__', '__new__', '__post_init__']
WITH id, n, home, [x IN [n, made] WHERE x IS NOT NULL] AS callees
UNWIND callees AS callee
OPTIONAL MATCH p = (scope:Code)-[:CALLS*1..3]->(callee)
  WHERE (scope:Module OR scope:Class)
    AND all(c IN relationships(p) WHERE c.resolution IN $resolutions
            OR (coalesce(endNode(c).coverage_outside, false) AND NOT endNode(c):Class))
    AND all(x IN nodes(p)[1..-1] WHERE coalesce(x.coverage_outside, false))
OPTIONAL MATCH (caller:Module)-[:DEFINES*0..6]->(scope)
WITH id, collect(DISTINCT home) AS homes, collect(DISTINCT caller) AS callers
UNWIND (CASE WHEN callers = [] THEN [null] ELSE callers END) AS caller
OPTIONAL MATCH (importer:Module {repo: caller.repo})-[:IMPORTS]->(x:Code)
  WHERE caller.path ENDS WITH '__init__.py' AND coalesce(importer.test_code, false)
    AND (x.qualified_name = caller.qualified_name
         OR x.qualified_name STARTS WITH caller.qualified_name + '.')
WITH id, homes, callers, collect(DISTINCT importer) AS importers
WITH collect({
  id: id, modules: homes + callers,
  tests: importers + [c IN callers WHERE coalesce(c.test_code, false)]
}) AS found
CALL {
  WITH found
  UNWIND found AS f
  UNWIND f.modules AS module
  WITH module, collect(DISTINCT f.id) AS ids  // each module's code is read once
  MATCH (module)-[:DEFINES*0..6]->(code:Code)<-[:RAN]-(t:Code)
  WITH module, ids, code, collect(DISTINCT t.id) AS tests
  RETURN ids, module, tests, coalesce(code.coverage_outside, false) AS outside
  UNION
  WITH found
  UNWIND found AS f
  UNWIND f.tests AS module
  WITH module, collect(DISTINCT f.id) AS ids
  MATCH (module)-[:DEFINES*1..6]->(t:Code {test_role: 'test'})
  RETURN ids, module, collect(DISTINCT t.id) AS tests, false AS outside
}
OPTIONAL MATCH (r:Repository {name: module.repo})
RETURN ids, module.qualified_name AS module, tests, outside, r.coverage_tests AS suite
