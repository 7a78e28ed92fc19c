// Mark one batch of vectors as out of date (run until it returns 0), so that the next
// embedding run recomputes them; the old vectors stay searchable until then.
// Parameters: $after, $before, $repo, $limit
MATCH (n:Code)
WHERE n.id > $after AND n.id < $before
  AND ($repo IS NULL OR n.repo = $repo)
  AND n.embedded_hash IS NOT NULL
WITH n LIMIT $limit
REMOVE n.embedded_hash
RETURN count(n) AS forgotten
