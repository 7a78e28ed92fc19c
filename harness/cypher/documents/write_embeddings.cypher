// Store vectors (as float32 via the procedure) and the key that makes re-runs skip them.
// Parameters: $corpus, $model, $rows = [{id, embedding, hash}]
UNWIND $rows AS row
MATCH (d:Document {corpus: $corpus, id: row.id})
CALL db.create.setNodeVectorProperty(d, 'embedding', row.embedding)
SET d.embedding_model = $model, d.embedded_hash = row.hash
