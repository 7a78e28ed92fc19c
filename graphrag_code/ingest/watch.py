"""`index --watch`: re-index incrementally after a short debounce whenever sources change.

The caller runs one incremental index first, which catches up with changes made while no
watcher ran; after that each batch of file events triggers another incremental run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import watchfiles

from ..connection import Neo4jClient
from ..embedding import Embedder
from ..parsing import LANGUAGES
from ..parsing.walker import SKIP_DIRS
from ..settings import Settings
from .report import IngestReport

__all__ = ["relevant_change", "watch_repository"]


def relevant_change(path: str) -> bool:
    """A change to a source file outside skipped directories (or to a .gitignore)."""
    parts = Path(path).parts
    if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in parts):
        return False
    return Path(path).suffix in LANGUAGES or Path(path).name == ".gitignore"


def watch_repository(
    path: str | Path,
    repo: str,
    *,
    client: Neo4jClient,
    settings: Settings,
    on_report: Callable[[IngestReport], None],
    debounce_ms: int = 500,
    stop_after: int | None = None,
    embed: bool = True,
    embedder: Embedder | None = None,
) -> None:
    """Block, re-indexing `path` after each debounced batch of relevant changes (and
    embedding what changed, unless `embed` is False)."""
    from ..api import index_repository

    runs = 0
    for changes in watchfiles.watch(
        path,
        debounce=debounce_ms,
        watch_filter=lambda _change, changed: relevant_change(changed),
        raise_interrupt=False,
    ):
        if not changes:
            continue
        on_report(
            index_repository(
                path, repo, client=client, settings=settings, embed=embed, embedder=embedder
            )
        )
        runs += 1
        if stop_after is not None and runs >= stop_after:
            return
