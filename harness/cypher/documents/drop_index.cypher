// Drop one index by name (only ever called with :Document index names).
// Parameters: $name
DROP INDEX $name IF EXISTS
