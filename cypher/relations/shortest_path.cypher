// The shortest chain of calls, imports and definitions from $source to $target whose CALLS
// steps all have a resolution in $tiers; DEFINES and IMPORTS steps always count. `path` asks
// for the certain tiers first, then for all (the predicate on each relationship alone lets
// Neo4j apply it during the breadth-first search). With $within (a repository name, or null)
// every node of the chain is in that repository; without it the chain may pass through other
// indexed repositories.
// Parameters: $source, $target, $tiers, $within
MATCH (a:Code {id: $source}), (b:Code {id: $target})
MATCH p = shortestPath((a)-[:CALLS|IMPORTS|DEFINES*..10]->(b))
WHERE all(r IN relationships(p) WHERE type(r) <> 'CALLS' OR r.resolution IN $tiers)
  AND ($within IS NULL OR all(n IN nodes(p) WHERE n.repo = $within))
RETURN [n IN nodes(p) | {id: n.id, qualified_name: n.qualified_name, kind: n.kind,
        repo: n.repo, path: n.path, start_line: n.start_line, end_line: n.end_line}] AS nodes,
       [r IN relationships(p) | {type: type(r), resolution: r.resolution, lines: r.lines,
        via: r.via}] AS relationships
