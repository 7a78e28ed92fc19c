// One chunk of the :Code nodes that need a vector from $model, in id order after $after
// (keyset pagination: a chunk read once is never read again, whether or not it is written yet).
// `cached` is a vector $model already computed for the same content on ANY node of any
// repository; the code is then not sent, since no ghost text is needed.
// Parameters: $after, $before, $repo, $model, $limit
MATCH (n:Code)
WHERE n.id > $after AND n.id < $before
  AND ($repo IS NULL OR n.repo = $repo)
  AND n.content_hash IS NOT NULL
  AND (n.embedded_hash IS NULL OR n.embedded_hash <> n.content_hash
       OR n.embedded_model IS NULL OR n.embedded_model <> $model)
WITH n
ORDER BY n.id
LIMIT $limit
WITH n, head(COLLECT {
  MATCH (m:Code {content_hash: n.content_hash})
  WHERE m.embedded_model = $model AND m.embedded_hash = m.content_hash
    AND m.embedding IS NOT NULL
  RETURN m.embedding
  LIMIT 1
}) AS cached
RETURN n.id AS id, n.content_hash AS content_hash, n.kind AS kind, n.path AS path,
       n.qualified_name AS qualified_name, n.signature AS signature,
       CASE WHEN cached IS NULL THEN n.docstring END AS docstring,
       CASE WHEN cached IS NULL THEN n.code END AS code,
       cached
ORDER BY n.id
