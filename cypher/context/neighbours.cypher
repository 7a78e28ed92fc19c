// Code of the given nodes and their close neighbours (certain callees, used types, siblings
// in the same class or module), for assembling an LLM context.
// Parameters: $ids, $limit
UNWIND $ids AS id
MATCH (n:Code {id: id})
CALL (n) {
  OPTIONAL MATCH (n)-[r:CALLS]->(m:Code)
  WHERE r.resolution IN ['exact', 'inferred']
  WITH m ORDER BY m.pagerank DESC
  RETURN collect(DISTINCT m)[..$limit] AS callees
}
CALL (n) {
  OPTIONAL MATCH (n)-[:USES_TYPE]->(t:Code)
  RETURN collect(DISTINCT t)[..$limit] AS types
}
CALL (n) {
  OPTIONAL MATCH (p:Code)-[:DEFINES]->(n)
  OPTIONAL MATCH (p)-[:DEFINES]->(s:Code)
  WHERE s <> n
  RETURN collect(DISTINCT s)[..$limit] AS siblings
}
// the source line the node starts on, from its file's module node: a method's code starts at
// `def`, and its first line shows at its indentation only when that is put back (issue 55)
CALL (n) {
  OPTIONAL MATCH (m:Code {path: n.path})
  WHERE m.repo = n.repo AND m.kind = 'Module' AND n.kind <> 'Module'
  RETURN split(m.code, '\n')[n.start_line - 1] AS first_line LIMIT 1
}
RETURN n.id AS id,
       n {.id, .qualified_name, .kind, .path, .start_line, .end_line, .code, .signature,
          .docstring, .language, first_line: first_line} AS node,
       [m IN callees | m {.id, .qualified_name, .kind, .path, .start_line, .end_line,
                          .signature, .docstring, .language}] AS callees,
       [t IN types | t {.id, .qualified_name, .kind, .path, .start_line, .end_line,
                        .signature, .docstring, .language}] AS types,
       [s IN siblings | s {.id, .qualified_name, .kind, .path, .start_line, .end_line,
                           .signature, .docstring, .language}] AS siblings
