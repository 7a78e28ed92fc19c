// One step backwards on the reach graph: the REACHES edges into $ids of the given tiers
// ($resolutions: null for every tier), and whether each source is a test. The tests of a node
// are found by repeating this step until no new node appears (GraphReader.reach_back), then
// walking the part read, tier by tier, in Python.
// Parameters: $ids, $resolutions
UNWIND $ids AS id
MATCH (source:Code)-[r:REACHES]->(:Code {id: id})
WHERE $resolutions IS NULL OR r.resolution IN $resolutions
RETURN source.id AS source, id AS target, r.resolution AS resolution, r.via AS via,
       coalesce(source.test_role = 'test', false) AS test
