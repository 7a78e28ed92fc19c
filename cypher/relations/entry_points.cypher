// Entry points of a repository: public functions and methods nothing calls but that call
// others (roots), and the most central symbols by PageRank.
// Parameters: $repo, $limit
CALL () {
  MATCH (n:Code {repo: $repo})
  WHERE (n:Function OR n:Method) AND NOT n.name STARTS WITH '_'
    AND coalesce(n.out_degree, 0) > 0 AND NOT ()-[:CALLS]->(n)
  RETURN n, 'root' AS role
  ORDER BY n.out_degree DESC, n.qualified_name
  LIMIT $limit
  UNION
  MATCH (n:Code {repo: $repo})
  WHERE n:Symbol
  RETURN n, 'central' AS role
  ORDER BY n.pagerank DESC, n.qualified_name
  LIMIT $limit
}
RETURN role, n.id AS id, n.qualified_name AS qualified_name, n.kind AS kind, n.path AS path,
       n.start_line AS start_line, n.end_line AS end_line, n.pagerank AS pagerank, n.in_degree AS in_degree,
       n.out_degree AS out_degree
