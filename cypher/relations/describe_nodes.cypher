// What a definition says about itself: signature, docstring, code, language, and how
// connected it is, for each node of $ids.
// Parameters: $ids
UNWIND $ids AS id
MATCH (n:Code {id: id})
// the source line the node starts on (its indentation, which its code lacks: issue 55)
CALL (n) {
  OPTIONAL MATCH (m:Code {path: n.path})
  WHERE m.repo = n.repo AND m.kind = 'Module' AND n.kind <> 'Module'
  RETURN split(m.code, '\n')[n.start_line - 1] AS first_line LIMIT 1
}
RETURN n.id AS id, n.qualified_name AS qualified_name, n.kind AS kind, n.repo AS repo,
       n.path AS path, n.start_line AS start_line, n.end_line AS end_line,
       n.signature AS signature, n.docstring AS docstring, n.code AS code, first_line,
       n.language AS language, coalesce(n.in_degree, 0) AS in_degree,
       coalesce(n.out_degree, 0) AS out_degree, coalesce(n.pagerank, 0.0) AS pagerank
