"""`--watch PATH`: keep one repository's graph fresh while the server runs.

A daemon thread indexes the folder once (catching up with edits made while nothing watched)
and then re-indexes incrementally after each debounced batch of changes
(`CodeGraph.watch`). Each run drops the freshness readings, so the next answer reports
the new commit and time; a failure is reported in every answer's freshness line instead of
stopping the server.
"""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from pathlib import Path

from ..codegraph import CodeGraph
from ..errors import GraphRAGCodeError
from ..ingest.report import IngestReport
from .freshness import FreshnessTracker, changed_since

__all__ = ["RepositoryWatcher"]


class RepositoryWatcher:
    """Watches `path` (indexed as `repo`) on a background thread between `start` and `stop`."""

    def __init__(
        self,
        graph: CodeGraph,
        path: Path,
        repo: str,
        tracker: FreshnessTracker,
        *,
        debounce_ms: int = 300,
    ) -> None:
        self.graph = graph
        self.path = path
        self.repo = repo
        self.tracker = tracker
        self.debounce_ms = debounce_ms
        self.runs = 0  # indexing runs finished (the catch-up run included)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        tracker.watched = repo

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="graphrag-code-watch", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _indexed(self, _report: IngestReport) -> None:
        self.runs += 1
        self.tracker.forget()

    def _catch_up(self) -> None:
        """Index until no file changed during the last run (edits made while a long first
        run walked the tree would otherwise wait for the next change to be seen)."""
        while not self._stop.is_set():
            started = datetime.now(timezone.utc)
            self._indexed(self.graph.index(self.path, self.repo, keep_choices=True))
            changes = changed_since(self.path, started)
            if not changes or not changes[0]:
                return

    def _run(self) -> None:
        try:
            self._catch_up()
            self.tracker.watching = True
            self.tracker.forget()
            self.graph.watch(
                self.path,
                self.repo,
                on_report=self._indexed,
                debounce_ms=self.debounce_ms,
                stop_event=self._stop,
            )
        except GraphRAGCodeError as exc:
            self.tracker.watch_error = str(exc)
        finally:
            self.tracker.watching = False
            self.tracker.forget()
