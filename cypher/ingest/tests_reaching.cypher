// The tests whose stored closure holds any of $ids (their closure may have changed).
// Parameters: $ids
UNWIND $ids AS id
MATCH (t:Code)-[:TESTS]->(:Code {id: id})
RETURN DISTINCT t.id AS id
