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
RETURN n.id AS id,
       n {.id, .qualified_name, .kind, .path, .start_line, .end_line, .code, .signature,
          .docstring, .language} AS node,
       [m IN callees | m {.id, .qualified_name, .kind, .path, .start_line, .end_line,
                          .signature, .docstring, .language}] AS callees,
       [t IN types | t {.id, .qualified_name, .kind, .path, .start_line, .end_line,
                        .signature, .docstring, .language}] AS types,
       [s IN siblings | s {.id, .qualified_name, .kind, .path, .start_line, .end_line,
                           .signature, .docstring, .language}] AS siblings
