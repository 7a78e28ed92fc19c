// Every repository's own vector index beside the shared one (named `<vector_index>_<repository
// token>`: graph/scoping.py): dropped with the shared one when the embedding model changes.
// Parameters: $prefix (the shared index's name and "_")
SHOW VECTOR INDEXES YIELD name
WHERE name STARTS WITH $prefix
RETURN name
