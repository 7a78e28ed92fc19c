// One repository's own whole-file text index (graph/scoping.py `file_text_index`): the
// `file_text` of its module nodes, which carry the label written here as `RepositoryLabel`
// (the schema code pastes the repository's `Repo_<token>` label in its place), so a file's
// BM25 weights are those of that repository alone.
// Parameters: $name, $fulltext_analyzer
CREATE FULLTEXT INDEX $name IF NOT EXISTS
FOR (n:RepositoryLabel) ON EACH [n.file_text]
OPTIONS {indexConfig: {
  `fulltext.analyzer`: $fulltext_analyzer, `fulltext.eventually_consistent`: true
}}
