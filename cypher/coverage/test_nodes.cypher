// The tests of a repository, to name the contexts of a coverage run by (not those an
// earlier import added for want of a node: the new import adds its own, coverage_test).
// Parameters: $repo
MATCH (t:Code)
WHERE t.repo = $repo AND t.test_role = 'test' AND t.coverage_test IS NULL
RETURN t.id AS id, t.path AS path, t.qualified_name AS qualified_name, t.module AS module,
       t.test_cases AS cases
