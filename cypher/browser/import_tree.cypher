// The import tree of a module, three levels deep.
// :param module => 'shop.api'
MATCH p = (m:Module {qualified_name: $module})-[:IMPORTS*1..3]->(:Code)
RETURN p
LIMIT 200
