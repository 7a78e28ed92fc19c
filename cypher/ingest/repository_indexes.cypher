// The indexes on a repository's own label $label (its full-text index: graph/scoping.py),
// dropped with the repository.
// Parameters: $label
SHOW INDEXES YIELD name, labelsOrTypes
WHERE labelsOrTypes = [$label]
RETURN name
