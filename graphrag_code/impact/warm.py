"""Plans for a diff's reads, made before the diff needs them.

Neo4j plans a query text the first time it meets it (and again after a schema change or
`db.clearQueryCaches()`): on Django that planning was most of the first `diff` after the server
started, 3 of 4 s (BENCHMARKS §21, stop 67). The plan cache key holds the parameters' types
and, for lists and strings, a size class (1, 2-10, 11-100, ...); the lists of a diff's reads
travel inside a map (`$lists`), whose size is not part of it, and `$repo` is the repository's
own name, so each read below, with arguments no node matches, leaves in the cache the very plan
the diff then uses. `DiffWarmer` runs them on a thread while the diff reads git and parses the
changed files; a read that meets a plan still being made waits for it or makes it again,
neither slower than making it alone.
"""

from __future__ import annotations

import threading

from ..errors import GraphRAGCodeError
from ..graph import GraphReader
from ..languages import dispatch_stored
from ..model import CERTAIN_TIERS
from .programs import STARTERS

__all__ = ["DiffWarmer", "warm_diff_plans"]

_NOTHING = "\x00"  # a path, folder or name no node has (inside `$lists`: no size class)


def warm_diff_plans(reader: GraphReader, repo: str) -> None:
    """Run each read of a diff of `repo` once, with arguments that match nothing, latest
    first (the diff's own thread meets the first ones itself). A lone id is a string
    parameter with a size class: the one no node has is as long as most ids (11-100)."""
    some_id = f"{repo}:" + _NOTHING * 16
    no_repo = _NOTHING * len(repo)  # the size class of `repo`: reads that would scan it
    reader.completeness([_NOTHING])
    reader.coverage_state(repo)
    reader.reached_from([_NOTHING], [_NOTHING], resolutions=CERTAIN_TIERS)
    reader.program_entries(no_repo)
    reader.process_tests([_NOTHING], STARTERS)
    reader.ran_into([_NOTHING])
    reader.tests_inside([_NOTHING])
    reader.test_nodes([_NOTHING])
    reader.reach_back([_NOTHING], resolutions=CERTAIN_TIERS, limit=1)
    reader.overridden_methods(some_id, stored=dispatch_stored())
    reader.affected_step([_NOTHING], limit_per_node=1)
    reader.name_importers([(_NOTHING, _NOTHING, _NOTHING)])
    reader.descendants(some_id)
    reader.folder_modules(repo, [_NOTHING])
    reader.file_nodes(repo, [_NOTHING])


class DiffWarmer:
    """`warm_diff_plans` on a daemon thread: `start()` before the diff, `join()` after it (a
    failed read only leaves a plan unmade)."""

    def __init__(self, reader: GraphReader, repo: str) -> None:
        self._thread = threading.Thread(
            target=self._run, args=(reader, repo), name="diff-plans", daemon=True
        )

    @staticmethod
    def _run(reader: GraphReader, repo: str) -> None:
        try:
            warm_diff_plans(reader, repo)
        except GraphRAGCodeError:  # the diff's own read of it says what failed
            return

    def start(self) -> DiffWarmer:
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)
