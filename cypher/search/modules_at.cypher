// The module (file) node at each (repository, path): `search(unit="file")` names the files it
// ranks by them. Seeks the :Code(path) index, then keeps the module of the right repository.
// Parameters: $locations   list of {repo, path}
UNWIND $locations AS location
MATCH (m:Code {path: location.path})
WHERE m:Module AND m.repo = location.repo
RETURN m.repo AS repo, m.path AS path, m.id AS id, m.qualified_name AS qualified_name
