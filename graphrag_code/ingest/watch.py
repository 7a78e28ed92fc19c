"""`index --watch`: call back after a short debounce whenever sources change.

The watcher knows nothing about indexing: it reports batches of changed paths to a callback
(`api.watch_repository` re-indexes incrementally there), so this module stays below the front
door in the layers.
"""

from __future__ import annotations

import fnmatch
import os
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import watchfiles

from ..languages import routes
from ..parsing.walker import is_build_output

__all__ = ["changed_since", "relevant_change", "watch_changes"]

_MAX_SCANNED = 50_000  # files: past this the count says "at least"
_SAMPLE = 5


def relevant_change(path: str, root: Path | None = None) -> bool:
    """A change to a source file of any supported language outside skipped directories (or
    to a .gitignore or a project file such as tsconfig.json); only the part of `path` below
    the watched `root` is checked. (Extension-less scripts are read at the next full walk.)"""
    candidate = Path(path)
    base = Path()
    if root is not None and candidate.is_relative_to(root):
        candidate, base = candidate.relative_to(root), root
    parts = candidate.parts
    for depth, part in enumerate(parts):
        folder = str(base.joinpath(*parts[: depth + 1]))
        if part.endswith(".egg-info") or is_build_output(folder, part):
            return False
    known = routes()
    return (
        candidate.suffix in known.suffixes
        or candidate.name == ".gitignore"
        or any(fnmatch.fnmatch(candidate.name, pattern) for pattern in known.project_files)
    )


def changed_since(root: Path, since: datetime) -> tuple[int, tuple[str, ...]] | None:
    """How many source files under `root` were modified after `since`, and a few of them;
    None when `root` is not a folder here."""
    if not root.is_dir():
        return None
    cutoff = since.timestamp()
    changed: list[str] = []
    scanned = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d
            for d in dirs
            if not is_build_output(os.path.join(folder, d), d) and not d.endswith(".egg-info")
        )
        for name in sorted(files):
            scanned += 1
            path = os.path.join(folder, name)
            if not relevant_change(path, root):
                continue
            try:
                modified = os.stat(path).st_mtime
            except OSError:  # deleted while scanning
                continue
            if modified > cutoff:
                changed.append(os.path.relpath(path, root))
        if scanned >= _MAX_SCANNED:
            break
    return len(changed), tuple(changed[:_SAMPLE])


def watch_changes(
    path: str | Path,
    on_changes: Callable[[frozenset[str]], None],
    *,
    debounce_ms: int = 500,
    stop_after: int | None = None,
    stop_event: threading.Event | None = None,
) -> None:
    """Block, calling `on_changes` with the absolute paths of each debounced batch of relevant
    changes, until `stop_event` is set, `stop_after` batches were handled, or Ctrl-C."""
    root = Path(path).resolve()
    batches = 0
    for changes in watchfiles.watch(
        root,
        debounce=debounce_ms,
        watch_filter=lambda _change, changed: relevant_change(changed, root),
        raise_interrupt=False,
        stop_event=stop_event,
    ):
        if not changes:
            continue
        on_changes(frozenset(changed for _change, changed in changes))
        batches += 1
        if stop_after is not None and batches >= stop_after:
            return
