// Repositories with nodes that lack `repo_token` (written before full-text queries were
// scoped by repository); read once, when the full-text index is rebuilt to cover it.
MATCH (n:Code) WHERE n.repo_token IS NULL AND n.repo IS NOT NULL
RETURN DISTINCT n.repo AS repo
