// The tests of a repository, to name the contexts of a coverage run by.
// Parameters: $repo
MATCH (t:Code)
WHERE t.repo = $repo AND t.test_role = 'test'
RETURN t.id AS id, t.path AS path, t.qualified_name AS qualified_name, t.module AS module,
       t.test_cases AS cases
