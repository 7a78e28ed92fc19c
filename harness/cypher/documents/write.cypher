// Upsert documents of corpus $corpus.
// Parameters: $corpus, $rows = [{id, title, text, content, content_hash}]
UNWIND $rows AS row
MERGE (d:Document {corpus: $corpus, id: row.id})
SET d.title = row.title, d.text = row.text, d.content = row.content,
    d.content_hash = row.content_hash
