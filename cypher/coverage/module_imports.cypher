// The import graph of the repositories of $ids (what `impact.import_failures` walks): every
// module with the modules of its repository it imports, whether it is a package (which runs
// at the import of every module inside it), the tests it defines, which of $ids it defines,
// and whether the test runner runs it: some code of it ran outside every test and in every
// test of the coverage import (pluggy's hooks, which pytest calls around each test). One
// row per module.
// Parameters: $ids
UNWIND $ids AS id
MATCH (home:Module)-[:DEFINES*1..6]->(:Code {id: id})
WITH collect(DISTINCT home.repo) AS repos, collect({id: id, home: home.id}) AS homes
UNWIND repos AS repo
MATCH (m:Module {repo: repo})
OPTIONAL MATCH (m)-[:IMPORTS]->(x:Module {repo: repo})
WITH homes, repo, m, collect(DISTINCT x.id) AS imports
OPTIONAL MATCH (m)-[:DEFINES*1..6]->(t:Code {test_role: 'test'})
  WHERE coalesce(m.test_code, false)
WITH homes, repo, m, imports, collect(DISTINCT t.id) AS tests
OPTIONAL MATCH (r:Repository {name: repo})
RETURN m.id AS id, m.qualified_name AS module, coalesce(m.is_package, false) AS package,
       imports, tests, [h IN homes WHERE h.home = m.id | h.id] AS asked,
       coalesce(r.coverage_tests, 0) > 0 AND EXISTS {
         MATCH (m)-[:DEFINES*1..6]->(c:Code {coverage_outside: true})
         WHERE COUNT { (c)<-[:RAN]-() } >= r.coverage_tests
       } AS runner
