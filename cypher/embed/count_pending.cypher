// How many :Code nodes need a vector from $model: never embedded, embedded from text that has
// changed since (embedded_hash <> content_hash), or embedded by another model.
// $after/$before bound the ids (ids start with "<repo>:", so one repository is one id range);
// $repo is null for every repository.
// Parameters: $after, $before, $repo, $model
MATCH (n:Code)
WHERE n.id > $after AND n.id < $before
  AND ($repo IS NULL OR n.repo = $repo)
  AND n.content_hash IS NOT NULL
  AND (n.embedded_hash IS NULL OR n.embedded_hash <> n.content_hash
       OR n.embedded_model IS NULL OR n.embedded_model <> $model)
RETURN count(n) AS pending
