// Every repository: its last indexing run (status, commit, time, root folder), its size, and
// its files and code nodes (and how many have a vector) per language and kind. $repo: one
// repository, or null for all.
CALL () {
  MATCH (r:Repository)
  WHERE $repo IS NULL OR r.name = $repo
  RETURN r
}
CALL (r) {
  MATCH (n:Code {repo: r.name})
  WITH n.language AS language, n.kind AS kind, count(*) AS nodes,
       sum(CASE WHEN n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS vectors
  RETURN collect({language: language, kind: kind, nodes: nodes, vectors: vectors}) AS counts
}
RETURN r.name AS name, r.root AS root, coalesce(r.status, 'unknown') AS status, r.head AS head,
       r.indexed_at.epochMillis AS indexed_ms, r.files AS files, r.symbols AS symbols, counts
ORDER BY name
