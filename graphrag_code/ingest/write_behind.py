"""Graph writes run in order on one background thread while the run prepares what comes next.

The write stage used to alternate: Python built rows while the server waited, then the
server created them while Python waited (Django: ~20 s of the server's work and ~8 s of
Python's — node rows, edge digests, the tests stage's reach graph, the next state). Handed to
`WriteBehind`, each write starts as soon as the one before it is done, and the run goes on
building the next rows meanwhile. Writes keep the order they were submitted in, on one
connection at a time, so nothing they do to the graph changes; only *when* they happen.

Whatever a write is given must not change after it is submitted (the caller hands it over).
The first failure stops every write after it and is raised again where the run waits
(`drain`) or submits next, so a server that goes down mid-run ends the run with the same
error as before, and nothing is written out of order after it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType
from typing import ParamSpec

__all__ = ["WriteBehind"]

P = ParamSpec("P")


class WriteBehind:
    """An ordered queue of writes run by one background thread."""

    def __init__(self) -> None:
        # One thread: writes run in the order they were submitted. (Two streams of node
        # writes at once were tried on Django: no faster on two cores, which the server and
        # the run already share.)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graph-writes")
        self._pending: list[Future[None]] = []
        self._failure: BaseException | None = None
        # seconds each kind of write (the callable's name) took on the writing thread: the
        # server's work on the run's rows, plus the driver packing them (the run's own work
        # goes on meanwhile, so the stage's time alone no longer says what writing costs)
        self.seconds: dict[str, float] = {}

    def __enter__(self) -> WriteBehind:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if kind is None:
                self.drain()
        finally:
            # The run failed or was interrupted: writes not yet started never start, the one
            # under way finishes (a transaction is not cut in half), then the thread ends.
            self._pool.shutdown(wait=True, cancel_futures=True)

    def submit(self, write: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> Future[None]:
        """Queue `write(*args, **kwargs)` after every write submitted before it; its future
        says when it is done (`result()` raises what made it, or a write before it, fail)."""
        self._raise_failure()

        def run() -> None:
            if self._failure is not None:
                raise self._failure  # an earlier write failed: nothing after it is written
            started = time.perf_counter()
            try:
                write(*args, **kwargs)
            except BaseException as exc:
                self._failure = exc
                raise
            finally:
                kind = getattr(write, "__name__", "write")
                self.seconds[kind] = self.seconds.get(kind, 0.0) + time.perf_counter() - started

        future = self._pool.submit(run)
        self._pending.append(future)
        return future

    def drain(self) -> None:
        """Wait until every submitted write is done; raise the first failure."""
        pending, self._pending = self._pending, []
        for future in pending:
            if not future.cancelled():
                future.exception()  # waits; the failure itself is kept in `_failure`
        self._raise_failure()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure
