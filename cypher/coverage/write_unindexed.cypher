// Tests a coverage run names that the index has no node for (`impact/unindexed.py`): one
// test node each, named by its runner id (`test_runner`), for RAN edges to start from.
// Parameters: $repo, $rows = [{id, runner, path, name}]
UNWIND $rows AS row
MERGE (t:Code {id: row.id})
SET t.repo = $repo, t.name = row.name, t.qualified_name = row.runner, t.kind = 'Test',
    t.path = row.path, t.test_role = 'test', t.test_runner = row.runner,
    t.coverage_test = true
