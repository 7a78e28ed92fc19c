// One step backwards on the reach graph: the REACHES edges into the ids of the given tiers
// (resolutions: null for every tier), and whether each source is a test. The tests of a node
// are found by repeating this step until no new node appears (GraphReader.reach_back), then
// walking the part read, tier by tier, in Python.
// Parameters: $lists {ids, resolutions}
// Lists travel inside the map $lists: a list parameter's size class (1, 2-10, 11-100, ...) and
// a null in its place are part of Neo4j's plan cache key, so each would be planned again
// (BENCHMARKS §10d, stop 67).
UNWIND $lists.ids AS id
MATCH (source:Code)-[r:REACHES]->(:Code {id: id})
WHERE $lists.resolutions IS NULL OR r.resolution IN $lists.resolutions
RETURN source.id AS source, id AS target, r.resolution AS resolution, r.via AS via,
       coalesce(source.test_role = 'test', false) AS test
