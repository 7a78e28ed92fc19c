// Delete up to $limit documents of corpus $corpus (call until it returns 0).
// Parameters: $corpus, $limit
MATCH (d:Document {corpus: $corpus})
WITH d LIMIT $limit
DETACH DELETE d
RETURN count(*) AS deleted
