// Code whose unresolved call sites use the name $name: possible callers that no edge records.
// Parameters: $name, $repo
MATCH (n:Code)
WHERE n.repo = $repo AND $name IN n.unresolved_names
RETURN n.id AS id, n.qualified_name AS qualified_name, n.kind AS kind, n.repo AS repo,
       n.path AS path, n.start_line AS start_line, n.end_line AS end_line
ORDER BY qualified_name
LIMIT 100
