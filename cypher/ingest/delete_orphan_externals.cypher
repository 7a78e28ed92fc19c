// External targets nobody points at any more.
MATCH (e:External)
WHERE NOT (e)<--()
DELETE e
