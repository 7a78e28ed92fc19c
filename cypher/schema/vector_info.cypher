// Dimensions and covered properties of the vector index $name (no row when it does not
// exist): ['embedding'], or ['embedding', 'repo'] when `repo` is a filter property (2026.01+).
// Parameters: $name
SHOW VECTOR INDEXES YIELD name, options, properties
WHERE name = $name
RETURN options.indexConfig.`vector.dimensions` AS dimensions, properties
