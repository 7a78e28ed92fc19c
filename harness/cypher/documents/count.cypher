// Documents of corpus $corpus, and how many of them hold a vector.
// Parameters: $corpus
MATCH (d:Document {corpus: $corpus})
RETURN count(d) AS documents, count(d.embedding) AS embedded
