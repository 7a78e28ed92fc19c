// Full-text index with title and text as separate Lucene fields (BEIR/Pyserini "multifield").
// Parameters: $name, $analyzer
CREATE FULLTEXT INDEX $name IF NOT EXISTS
FOR (d:Document) ON EACH [d.title, d.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: $analyzer, `fulltext.eventually_consistent`: false}}
