"""The library's front door: index repositories with sensible defaults."""

from __future__ import annotations

from pathlib import Path

from .connection import Neo4jClient
from .ingest.pipeline import IndexOptions, ProgressReporter
from .ingest.pipeline import index_repository as _index
from .ingest.report import IngestReport
from .ingest.state import StateStore
from .schema import SchemaConfig, ensure_schema
from .settings import Settings, load_settings
from .storage.writer import GraphWriter

__all__ = ["delete_repository", "index_repository", "schema_config"]


def schema_config(settings: Settings, *, dimensions: int, model: str) -> SchemaConfig:
    return SchemaConfig(
        vector_index=settings.vector_index,
        fulltext_index=settings.fulltext_index,
        dimensions=dimensions,
        model=model,
    )


def index_repository(
    path: str | Path,
    repo: str | None = None,
    *,
    client: Neo4jClient | None = None,
    settings: Settings | None = None,
    full: bool = False,
    progress: ProgressReporter | None = None,
) -> IngestReport:
    """Index the repository at `path` (incrementally when it was indexed before).

    Without `client`, connects as `settings` say (NEO4J_URI, else the local server).
    """
    settings = settings or load_settings()
    own_client = client is None
    client = client or Neo4jClient.from_settings(settings)
    try:
        ensure_schema(client, schema_config(settings, dimensions=384, model="minilm"))
        return _index(
            path,
            client,
            repo=repo,
            state_dir=settings.cache_dir / "graphs",
            options=IndexOptions(full=full),
            progress=progress,
        )
    finally:
        if own_client:
            client.close()


def delete_repository(repo: str, *, client: Neo4jClient, settings: Settings | None = None) -> None:
    """Remove a repository's nodes and edges from the graph, and its local incremental state."""
    settings = settings or load_settings()
    GraphWriter(client, repo).delete_repository()
    StateStore(settings.cache_dir / "graphs").delete(client.endpoint.uri, client.database, repo)
