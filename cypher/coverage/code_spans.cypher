// The functions, methods and classes of a repository with their lines and content hash: a
// covered line belongs to the innermost span holding it (impact/coverage.py).
// Parameters: $repo
MATCH (n:Symbol)
WHERE n.repo = $repo
RETURN n.id AS id, n.path AS path, n.start_line AS start_line, n.end_line AS end_line,
       n.content_hash AS content_hash
