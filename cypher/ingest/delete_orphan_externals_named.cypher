// The given external targets, if nothing points at them any more.
// Parameters: $names
UNWIND $names AS name
MATCH (e:External {qualified_name: name})
WHERE NOT (e)<--()
DELETE e
