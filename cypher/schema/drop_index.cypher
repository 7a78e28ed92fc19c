// Drop the index $name: a vector index before re-creating it for another model or with the
// repository filter, the full-text index before re-creating it over `repo_token`.
// Parameters: $name
DROP INDEX $name IF EXISTS
