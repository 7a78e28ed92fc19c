// Find the code nodes a name refers to: exact qualified name (rank 0), short name (1),
// dotted suffix such as `orders.OrderService` (2; or the name after a `/`: Java's
// `p.Util.add` for `core/p.Util.add`, a build module's), file path of a module (3). A name with
// parameters names one overload (Java's `add(Item)`, `Cart.add(Item)`): its short name is
// the part before `(`.
// A name defined again in the same file (a property's setter, `@overload` variants, a
// function defined in two branches) is one match: its first definition, where the calls
// to it land.
// Parameters: $name, $repo (or null), $limit
CALL () {
  MATCH (n:Code) WHERE n.qualified_name = $name
  RETURN n, 0 AS rank
  UNION
  MATCH (n:Code) WHERE n.name = $name
  RETURN n, 1 AS rank
  UNION
  MATCH (n:Code)
  WHERE $name CONTAINS '(' AND n.name = split($name, '(')[0]
    AND n.qualified_name ENDS WITH '.' + $name
  RETURN n, 1 AS rank
  UNION
  MATCH (n:Code)
  WHERE split($name, '(')[0] CONTAINS '.' AND n.name = last(split(split($name, '(')[0], '.'))
    AND (n.qualified_name ENDS WITH '.' + $name OR n.qualified_name ENDS WITH '/' + $name)
  RETURN n, 2 AS rank
  UNION
  MATCH (n:Code) WHERE n.path = $name AND n:Module
  RETURN n, 3 AS rank
  UNION
  MATCH (n:Code) WHERE n.path ENDS WITH '/' + $name AND n:Module
  RETURN n, 3 AS rank
}
WITH n, min(rank) AS rank
WHERE $repo IS NULL OR n.repo = $repo
WITH n, rank
ORDER BY n.start_line
WITH n.repo AS repo, n.path AS path, n.qualified_name AS qualified_name, rank,
     head(collect(n)) AS n
RETURN n.id AS id, qualified_name, n.kind AS kind, path, repo, n.start_line AS start_line,
       n.end_line AS end_line, rank
ORDER BY rank, qualified_name
LIMIT $limit
