// The shortest chain of calls, imports and definitions from $source to $target.
// Parameters: $source, $target
MATCH (a:Code {id: $source}), (b:Code {id: $target})
MATCH p = shortestPath((a)-[:CALLS|IMPORTS|DEFINES*..10]->(b))
RETURN [n IN nodes(p) | {id: n.id, qualified_name: n.qualified_name, kind: n.kind,
        path: n.path, start_line: n.start_line, end_line: n.end_line}] AS nodes,
       [r IN relationships(p) | {type: type(r), resolution: r.resolution, lines: r.lines}]
         AS relationships
