// Store one chunk of vectors, each with the content hash its text was built from.
// db.create.setNodeVectorProperty stores float32 (half the size of a Cypher list of floats).
// A node whose content changed after it was read is left alone: it stays pending for the
// next run instead of being marked as embedded from a text it no longer has.
// Parameters: $rows = [{id, content_hash, embedding}], $model
UNWIND $rows AS row
MATCH (n:Code {id: row.id})
WHERE n.content_hash = row.content_hash
CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)
SET n.embedded_hash = row.content_hash, n.embedded_model = $model
RETURN count(n) AS written
