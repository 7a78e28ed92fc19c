"""Which repositories the graph holds, and whether their last indexing run finished."""

from __future__ import annotations

from ..errors import RepositoryNotFoundError
from .client import Neo4jClient
from .queries import load_query

__all__ = ["repository_statuses", "require_repository"]


def repository_statuses(client: Neo4jClient) -> dict[str, str]:
    """Repository name -> status of its last run: "complete", or "indexing" while a run is
    under way or after one was interrupted (its graph then holds part of the files)."""
    rows = client.read(load_query("ingest/list_repositories"))
    return {row["name"]: row["status"] for row in rows}


def require_repository(client: Neo4jClient, repo: str) -> None:
    """Raise `RepositoryNotFoundError`, naming the repositories the graph holds, unless it
    holds `repo` (one read)."""
    known = repository_statuses(client)
    if repo not in known:
        raise RepositoryNotFoundError(repo, known=list(known))
