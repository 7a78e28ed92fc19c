// The functions, methods and classes of a repository with their lines and content hash: a
// covered line belongs to the innermost span holding it (impact/coverage.py); a function's
// code says where its body starts (lines before it run at import).
// Parameters: $repo
MATCH (n:Symbol)
WHERE n.repo = $repo
RETURN n.id AS id, n.path AS path, n.start_line AS start_line, n.end_line AS end_line,
       n.content_hash AS content_hash, CASE WHEN n:Class THEN null ELSE n.code END AS code
