// Nodes, vectors and test nodes per repository. Where the repository filter applies after an
// index search (the vector leg on 5.26; the full-text leg of an index without `repo_token`),
// search over-fetches by the repository's share of the index; where it leaves test code out,
// by the share of nodes that are not tests.
// `IS NOT NULL` checks that a vector exists without reading it: count(n.embedding) loads every
// vector (7x slower on Django's 42k nodes).
MATCH (n:Code)
RETURN n.repo AS repo, count(*) AS nodes,
       sum(CASE WHEN n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS vectors,
       sum(CASE WHEN n.test_code THEN 1 ELSE 0 END) AS tests
ORDER BY repo
