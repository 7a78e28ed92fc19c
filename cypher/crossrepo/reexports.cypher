// External names that are no node of the repository providing them but a name one of its
// modules re-exports: `urllib3.util.Retry` is `urllib3.util.retry.Retry` when
// `urllib3/util/__init__.py` imports `Retry` from `urllib3.util.retry`. One step of
// re-export; a name re-exported by several modules is left alone.
// Parameters: $rows = [{name, target}]
UNWIND $rows AS row
WITH row, split(row.name, '.') AS parts
WHERE size(parts) >= 2
  AND NOT EXISTS { MATCH (n:Code {qualified_name: row.name}) WHERE n.repo = row.target }
WITH row, last(parts) AS attr,
     substring(row.name, 0, size(row.name) - size(last(parts)) - 1) AS home
MATCH (m:Module {qualified_name: home})-[r:IMPORTS]->(d:Module)
WHERE m.repo = row.target AND attr IN coalesce(r.names, [])
MATCH (t:Code {qualified_name: d.qualified_name + '.' + attr})
WHERE t.repo = row.target
WITH row, collect(DISTINCT t.qualified_name) AS found
WHERE size(found) = 1
RETURN row.name AS name, row.target AS target, found[0] AS node
