// Every index with its state, the constraint that owns it, what it covers and, for a vector
// index, its dimension count: `ensure_schema` reads this first and sends nothing more when
// the schema is already in place.
SHOW INDEXES YIELD name, type, state, owningConstraint, properties, options
RETURN name, type, state, owningConstraint, properties,
       options.indexConfig.`vector.dimensions` AS dimensions
