// One repository's own full-text index (graph/scoping.py): its nodes carry the label written
// here as `RepositoryLabel` (the schema code pastes the repository's `Repo_<token>` label in
// its place: an index takes no parameter for a label), so BM25 weighs words by the statistics
// of that repository alone and other repositories cannot change its answers.
// Parameters: $name, $fulltext_analyzer
CREATE FULLTEXT INDEX $name IF NOT EXISTS
FOR (n:RepositoryLabel) ON EACH [n.search_text]
OPTIONS {indexConfig: {
  `fulltext.analyzer`: $fulltext_analyzer, `fulltext.eventually_consistent`: true
}}
