// Drop the vector index $name (before re-creating it for another model).
// Parameters: $name
DROP INDEX $name IF EXISTS
