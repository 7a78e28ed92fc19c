// What may break if a file changes: code that imports, calls, subclasses or uses it, 3 hops.
// :param path => 'src/shop/storage/base.py'
MATCH (m:Module)
WHERE m.path = $path OR m.path ENDS WITH '/' + $path
MATCH (m)-[:DEFINES*0..3]->(changed:Code)
MATCH p = (changed)<-[:IMPORTS|CALLS|INHERITS|USES_TYPE*1..3]-(affected:Code)
RETURN p
LIMIT 300
