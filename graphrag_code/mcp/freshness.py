"""How fresh the graph is: each answer says which commit was indexed, when, and how many
source files changed on disk since (an agent that just edited a file must know the graph may
not show the edit yet).

Changes are found by modification time against the last indexing run, which works with or
without git and sees uncommitted edits; readings are reused for a few seconds so that a burst
of tool calls scans the tree once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from ..graph import AnswerWarning, RepositoryInfo, answer_warnings
from ..ingest.watch import changed_since

__all__ = [
    "Freshness",
    "FreshnessTracker",
    "WatcherState",
    "changed_since",
    "describe_freshness",
]

WatcherState = Literal["watching", "catching up"]


@dataclass(frozen=True)
class Freshness:
    """One repository's graph against its files on disk."""

    repo: str
    status: str  # "complete", or "indexing" (a run under way or interrupted)
    head: str | None  # the git commit indexed
    indexed_at: datetime | None
    # source files modified since the last run (None: the indexed folder is not on this machine)
    changed_files: int | None
    changed_sample: tuple[str, ...] = ()  # a few of them, relative to the repository root
    # "watching": this server re-indexes the repository as files change; "catching up": its
    # watcher is indexing what changed before it started; None: no watcher
    watcher: WatcherState | None = None
    watch_error: str | None = None  # why the watcher stopped, if it did
    # an interrupted run, nodes without vectors (`answer_warnings`); answers that use no
    # vectors show only the first kind
    warnings: tuple[AnswerWarning, ...] = ()


def _age(when: datetime, now: datetime) -> str:
    seconds = max(0, int((now - when).total_seconds()))
    if seconds < 90:
        return f"{seconds} s ago"
    if seconds < 90 * 60:
        return f"{seconds // 60} min ago"
    if seconds < 36 * 3600:
        return f"{seconds // 3600} h ago"
    return f"{seconds // 86400} days ago"


def describe_freshness(fresh: Freshness, now: datetime | None = None) -> str:
    """One line: `shop: commit 4adb414, indexed 2026-01-02 10:00 UTC (5 min ago); …`."""
    now = now or datetime.now(timezone.utc)
    parts = [f"commit {fresh.head[:10]}" if fresh.head else "not a git checkout"]
    if fresh.indexed_at is not None:
        stamp = fresh.indexed_at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        parts.append(f"indexed {stamp} ({_age(fresh.indexed_at, now)})")
    if fresh.status != "complete" and not fresh.warnings:  # else a warning line says so
        parts.append(f"last indexing run {fresh.status}: the graph may miss files")
    line = f"{fresh.repo}: " + ", ".join(parts)
    if fresh.changed_files is None:
        line += "; changes since unknown (the indexed folder is not on this machine)"
    elif fresh.changed_files == 0:
        line += "; no source file changed since"
    else:
        line += f"; {fresh.changed_files} source file(s) changed since: " + ", ".join(
            fresh.changed_sample
        )
        if fresh.changed_files > len(fresh.changed_sample):
            line += ", …"
    if fresh.watcher == "watching":
        line += "; kept fresh by a watcher"
    elif fresh.watcher == "catching up":
        line += "; a watcher is indexing the changes made before it started"
    if fresh.watch_error:
        line += f"; the watcher stopped: {fresh.watch_error}"
    return line


@dataclass
class _Reading:
    at: float
    value: Freshness


@dataclass
class FreshnessTracker:
    """Freshness readings per repository, reused for `ttl_s` seconds (thread-safe: tools run
    on worker threads)."""

    read_repositories: Callable[[], list[RepositoryInfo]]
    ttl_s: float = 5.0
    watched: str | None = None  # the repository a watcher keeps fresh
    watching: bool = False  # its watcher caught up and now follows changes
    watch_error: str | None = None
    _readings: dict[str, _Reading] = field(default_factory=dict)
    _infos: tuple[float, dict[str, RepositoryInfo]] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def forget(self) -> None:
        """Drop every reading (after an indexing run)."""
        with self._lock:
            self._readings.clear()
            self._infos = None

    def repositories(self) -> dict[str, RepositoryInfo]:
        with self._lock:
            if self._infos is not None and time.monotonic() - self._infos[0] < self.ttl_s:
                return self._infos[1]
        infos = {info.name: info for info in self.read_repositories()}
        with self._lock:
            self._infos = (time.monotonic(), infos)
        return infos

    def of(self, repos: Iterable[str]) -> list[Freshness]:
        """The freshness of each of `repos` the graph holds, in the order given."""
        wanted = list(dict.fromkeys(repos))
        infos = self.repositories()
        return [self._reading(infos[repo]) for repo in wanted if repo in infos]

    def _watcher_state(self, repo: str) -> WatcherState | None:
        if repo != self.watched or self.watch_error is not None:
            return None
        return "watching" if self.watching else "catching up"

    def _reading(self, info: RepositoryInfo) -> Freshness:
        with self._lock:
            cached = self._readings.get(info.name)
            if cached is not None and time.monotonic() - cached.at < self.ttl_s:
                return cached.value
        changes = (
            changed_since(Path(info.root), info.indexed_at)
            if info.root and info.indexed_at is not None
            else None
        )
        value = Freshness(
            repo=info.name,
            status=info.status,
            head=info.head,
            indexed_at=info.indexed_at,
            changed_files=None if changes is None else changes[0],
            changed_sample=() if changes is None else changes[1],
            watcher=self._watcher_state(info.name),
            watch_error=self.watch_error if info.name == self.watched else None,
            warnings=answer_warnings([info.completeness], vectors=True),
        )
        with self._lock:
            self._readings[info.name] = _Reading(time.monotonic(), value)
        return value
