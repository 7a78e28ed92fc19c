// The shortest call chain between two functions (e.g. an endpoint and the database code).
// :param source => 'shop.api.create_order_endpoint'
// :param target => 'shop.storage.sqlite.SqliteStorage.save'
MATCH (a:Code {qualified_name: $source}), (b:Code {qualified_name: $target})
MATCH p = shortestPath((a)-[:CALLS*..10]->(b))
RETURN p
