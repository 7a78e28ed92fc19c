// The shortest call chain between two functions (e.g. an endpoint and the database code):
// through certain calls when there is one, else through possible ones (a name match, a
// dispatch to an override: the relationship's `resolution` and `via` say which step).
// :param source => 'shop.api.create_order_endpoint'
// :param target => 'shop.storage.sqlite.SqliteStorage.save'
MATCH (a:Code {qualified_name: $source}), (b:Code {qualified_name: $target})
OPTIONAL MATCH certain = shortestPath((a)-[:CALLS*..10]->(b))
  WHERE all(r IN relationships(certain) WHERE r.resolution IN ['exact', 'inferred'])
OPTIONAL MATCH any_path = shortestPath((a)-[:CALLS*..10]->(b))
WITH coalesce(certain, any_path) AS p
WHERE p IS NOT NULL
RETURN p, [r IN relationships(p) WHERE NOT r.resolution IN ['exact', 'inferred'] |
           startNode(r).qualified_name + ' -> ' + endNode(r).qualified_name + ': ' +
           r.resolution + coalesce(' (' + r.via + ')', '')] AS possible_steps
