// Every repository's own vector index beside the shared one $vector_index (named
// `<vector_index>_<repository token>`: graph/scoping.py), with its dimension count: dropped
// with the shared one when the embedding model changes.
// Parameters: $prefix (the shared index's name and "_")
SHOW VECTOR INDEXES YIELD name, options
WHERE name STARTS WITH $prefix
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions
