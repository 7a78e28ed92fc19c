// Dimensions of the vector index $name (no row when it does not exist).
// Parameters: $name
SHOW VECTOR INDEXES YIELD name, options
WHERE name = $name
RETURN options.indexConfig.`vector.dimensions` AS dimensions
