"""The writes (and the reads they need) of imported coverage: RAN edges from a test to the
code it ran, the content hash of each measured node at import (`coverage_hash`), and the
import's state (the commit and time of the run) on the :Repository node. Incremental
indexing merges nodes in place, so the RAN edges of code that stays survive it, a changed
node's `content_hash` moves away from its `coverage_hash` (stale) and a deleted node takes
its edges with it. `GraphReader.ran_into` and `coverage_state` read them back."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .client import Neo4jClient
from .queries import load_query
from .records import CodeSpan

__all__ = ["CoverageStore"]

_BATCH = 10_000


class CoverageStore:
    """One repository's imported coverage."""

    def __init__(self, client: Neo4jClient, repo: str) -> None:
        self.client = client
        self.repo = repo

    def spans(self) -> list[CodeSpan]:
        rows = self.client.read(load_query("coverage/code_spans"), {"repo": self.repo})
        return [
            CodeSpan(
                r["id"],
                r["path"],
                int(r["start_line"]),
                int(r["end_line"]),
                r["content_hash"],
                r["code"],
            )
            for r in rows
            if r["path"] is not None and r["start_line"] is not None
        ]

    def tests(self) -> list[tuple[str, str, str, str | None, tuple[str, ...]]]:
        """(id, path, qualified name, module, the ids of the cases it runs as where a class
        inherits it) of each test."""
        rows = self.client.read(load_query("coverage/test_nodes"), {"repo": self.repo})
        return [
            (r["id"], r["path"], r["qualified_name"], r["module"], tuple(r["cases"] or ()))
            for r in rows
        ]

    def replace_unindexed(self, rows: Sequence[Mapping[str, str]]) -> None:
        """Drop the tests an earlier import added for want of a node (with their RAN
        edges), then add `rows` (`UnindexedTest.row`): before `replace`, whose RAN edges
        start from them."""
        self.client.write(load_query("coverage/forget_unindexed"), {"repo": self.repo})
        if rows:
            self.client.write(
                load_query("coverage/write_unindexed"), {"repo": self.repo, "rows": list(rows)}
            )

    def replace(
        self,
        edges: Sequence[tuple[str, str]],
        hashes: Sequence[tuple[str, str, bool]],
        state: dict[str, Any],
        cases: Mapping[tuple[str, str], Iterable[str]] | None = None,
    ) -> None:
        """Drop the earlier import, then write (test, target) RAN edges, (node, hash, ran
        outside every test) import hashes and the import's state; batched, values as
        parameters. `cases`: the cases of a test method several classes run that ran the
        target (`Covered.cases`), kept on its RAN edge."""
        earlier = self.client.read(load_query("coverage/measured_nodes"), {"repo": self.repo})
        self.client.write_batches(
            load_query("coverage/forget_nodes"), [row["id"] for row in earlier], batch_size=200
        )
        self.client.write_batches(
            load_query("coverage/write_hashes"),
            [{"id": node, "hash": value, "outside": outside} for node, value, outside in hashes],
            batch_size=_BATCH,
        )
        by_test: dict[str, list[str]] = defaultdict(list)
        with_cases: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for test, target in edges:
            ran = (cases or {}).get((test, target))
            if ran:
                with_cases[test].append({"id": target, "cases": sorted(ran)})
            else:
                by_test[test].append(target)
        # grouped by test and without properties: 159k edges of pyramid in ~3.5 s, where a
        # row per edge with its commit took ~8 s (BENCHMARKS.md §20)
        self.client.write_batches(
            load_query("coverage/write_ran"),
            [{"test": test, "targets": targets} for test, targets in sorted(by_test.items())],
            batch_size=200,
        )
        self.client.write_batches(
            load_query("coverage/write_ran_cases"),
            [{"test": test, "targets": found} for test, found in sorted(with_cases.items())],
            batch_size=200,
        )
        self.client.write(load_query("coverage/write_state"), {"repo": self.repo, "state": state})
