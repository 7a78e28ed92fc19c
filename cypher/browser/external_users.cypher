// Which modules use an external package (e.g. who uses `requests`?).
// :param package => 'requests'
MATCH (m:Module)-[r:IMPORTS]->(e:External {package: $package})
RETURN m.qualified_name AS module, m.path AS path, e.qualified_name AS imports, r.lines AS lines
ORDER BY module
