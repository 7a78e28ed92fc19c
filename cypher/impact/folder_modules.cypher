// Modules of a repository in the given folders: how a file the graph does not hold (deleted,
// or not indexed yet) would be named, from its neighbours' names.
// Parameters: $repo, $lists {folders}
// Lists travel inside the map $lists: a list's size class is part of Neo4j's plan cache key
// (impact/reach_back.cypher).
UNWIND $lists.folders AS folder
MATCH (m:Module)
WHERE m.repo = $repo AND m.path STARTS WITH folder
  AND NOT substring(m.path, size(folder)) CONTAINS '/'
RETURN folder, m.path AS path, m.qualified_name AS qualified_name, m.is_package AS is_package
ORDER BY folder, path
