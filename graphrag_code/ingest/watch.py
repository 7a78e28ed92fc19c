"""`index --watch`: re-index incrementally after a short debounce whenever sources change.

The caller runs one incremental index first, which catches up with changes made while no
watcher ran; after that each batch of file events triggers another incremental run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import watchfiles

from ..embedding import Embedder
from ..graph.client import Neo4jClient
from ..parsing import LANGUAGES
from ..parsing.walker import SKIP_DIRS
from ..settings import Settings
from .report import IngestReport
from .state import StateStore

__all__ = ["relevant_change", "watch_repository"]


def relevant_change(path: str, root: Path | None = None) -> bool:
    """A change to a source file outside skipped directories (or to a .gitignore); only the
    part of `path` below the watched `root` is checked."""
    candidate = Path(path)
    if root is not None and candidate.is_relative_to(root):
        candidate = candidate.relative_to(root)
    parts = candidate.parts
    if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in parts):
        return False
    return candidate.suffix in LANGUAGES or candidate.name == ".gitignore"


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
    stop_event: threading.Event | None = None,
) -> None:
    """Block, re-indexing `path` after each debounced batch of relevant changes (and
    embedding what changed, unless `embed` is False). The incremental state stays in memory
    between runs, so each re-index after a one-file edit takes about a second."""
    from ..api import index_repository

    root = Path(path).resolve()
    store = StateStore(settings.cache_dir / "graphs")
    runs = 0
    for changes in watchfiles.watch(
        root,
        debounce=debounce_ms,
        watch_filter=lambda _change, changed: relevant_change(changed, root),
        raise_interrupt=False,
        stop_event=stop_event,
    ):
        if not changes:
            continue
        on_report(
            index_repository(
                root,
                repo,
                client=client,
                settings=settings,
                embed=embed,
                embedder=embedder,
                store=store,
                changed_paths=frozenset(changed for _change, changed in changes),
            )
        )
        runs += 1
        if stop_after is not None and runs >= stop_after:
            return
