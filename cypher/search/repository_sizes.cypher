// Nodes and vectors per repository. The vector and full-text indexes cover every repository and
// the repository filter applies after them, so search over-fetches by the repository's share.
// `IS NOT NULL` checks that a vector exists without reading it: count(n.embedding) loads every
// vector (7x slower on Django's 42k nodes).
MATCH (n:Code)
RETURN n.repo AS repo, count(*) AS nodes,
       sum(CASE WHEN n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS vectors
ORDER BY repo
