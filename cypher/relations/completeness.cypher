// How completely each of the repositories is indexed, for the warnings an answer carries: the status of
// its last run ("complete", or "indexing" after an interrupted run), its folder, and how many
// of its code nodes have a vector. `IS NOT NULL` checks that a vector exists without reading it
// (count(n.embedding) loads every vector); `code_repo` finds a repository's nodes.
// Parameters: $lists {repos}
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.repos AS name
MATCH (r:Repository {name: name})
CALL (r) {
  MATCH (n:Code {repo: r.name})
  RETURN count(*) AS nodes, sum(CASE WHEN n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS vectors
}
RETURN r.name AS repo, coalesce(r.status, 'unknown') AS status, r.root AS root, nodes, vectors
ORDER BY repo
