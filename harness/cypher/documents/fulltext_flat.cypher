// Full-text index over one field, title + " " + text (BEIR/Pyserini "flat").
// Parameters: $name, $analyzer
CREATE FULLTEXT INDEX $name IF NOT EXISTS
FOR (d:Document) ON EACH [d.content]
OPTIONS {indexConfig: {`fulltext.analyzer`: $analyzer, `fulltext.eventually_consistent`: false}}
