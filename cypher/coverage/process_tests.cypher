// The tests that start a child process (neither their coverage nor the reach graph sees
// what it runs): tests of the repositories of the ids from which up to three REACHES steps
// through test code lead to test code calling one of the starters (`subprocess.Popen`,
// `os.system`, ...), grouped by the test's module, with that module's text and the code of
// the callers of a starter, where a command names the program it starts.
// Parameters: $lists {ids, starters}
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.ids AS id
MATCH (x:Code {id: id})
WITH DISTINCT x.repo AS repo
MATCH (e:External) WHERE e.qualified_name IN $lists.starters
MATCH (starter:Code {repo: repo})-[:CALLS]->(e)
  WHERE coalesce(starter.test_code, false)
WITH repo, collect(DISTINCT starter) AS starters
UNWIND starters AS starter
MATCH (t:Code {repo: repo, test_role: 'test'})-[:REACHES*0..3]->(starter)
WITH repo, t, collect(DISTINCT starter.code) AS codes
MATCH (m:Module)-[:DEFINES*1..6]->(t)
RETURN repo, m.id AS module, m.file_text AS text, collect(DISTINCT t.id) AS tests,
       reduce(acc = [], c IN collect(codes) | acc + [x IN c WHERE NOT x IN acc]) AS codes
