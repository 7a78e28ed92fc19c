// Every repository in the graph and the status of its last indexing run
// ("complete", or "indexing" while a run is under way or after one was interrupted).
MATCH (r:Repository)
RETURN r.name AS name, coalesce(r.status, 'unknown') AS status
ORDER BY name
