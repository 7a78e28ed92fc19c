"""Many or large repositories in one graph: fifteen sdists, the indexer's memory per process,
edges across repositories."""
