// Nodes and vectors per repository. The vector and full-text indexes cover every repository and
// the repository filter applies after them, so search over-fetches by the repository's share.
MATCH (n:Code)
RETURN n.repo AS repo, count(*) AS nodes, count(n.embedding) AS vectors
ORDER BY repo
