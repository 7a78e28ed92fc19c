// The most central symbols of a repository (PageRank over calls and imports).
// :param repo => 'shop'
MATCH (n:Symbol {repo: $repo})
RETURN n.qualified_name AS symbol, n.kind AS kind, n.language AS language, n.path AS path,
       round(n.pagerank, 5) AS pagerank, n.in_degree AS callers, n.out_degree AS callees
ORDER BY n.pagerank DESC
LIMIT 25
