// Give up to $limit nodes of repository $repo its own label $label (nodes written before
// repositories had full-text indexes of their own; run until it writes none).
// Parameters: $repo, $label, $limit
MATCH (n:Code {repo: $repo}) WHERE NOT $label IN labels(n)
WITH n LIMIT $limit
SET n:$($label)
RETURN count(n) AS written
