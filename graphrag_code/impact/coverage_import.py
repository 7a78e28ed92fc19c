"""Import a coverage.py data file with per-test contexts into the graph: RAN edges from each
test to the functions, methods and classes it ran, and each measured node's content hash at
import, replacing the previous import (`CodeGraph.import_coverage`)."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..errors import InvalidArgumentError
from ..graph import Neo4jClient
from ..graph.coverage import CoverageStore
from .coverage import Span, body_line, covered_pairs, map_paths, read_coverage
from .tests import runner_id

__all__ = ["CoverageImport", "import_coverage"]


@dataclass(frozen=True)
class CoverageImport:
    """What an import stored."""

    repo: str
    file: str
    commit: str | None  # the commit the coverage was recorded at
    recorded_at: str  # when the data file was written (ISO, UTC)
    contexts: int  # the data file's contexts, the empty one included
    tests: int  # graph tests that ran some function, method or class
    edges: int  # RAN edges
    files_measured: int
    files_matched: int  # measured files with functions, methods or classes in the graph
    measured_nodes: int  # functions, methods and classes of those files (hashes kept)
    outside: int  # ... that also ran outside every test (predicted statically)
    unknown_tests: tuple[str, ...]  # contexts naming no test of the graph (the first 20)
    seconds: float


def import_coverage(
    client: Neo4jClient, repo: str, file: str | Path, *, root: str | None, commit: str | None
) -> CoverageImport:
    """Read `file`, map it onto the graph of `repo` (indexed from `root`) and store it."""
    started = time.perf_counter()
    lines = read_coverage(file)
    store = CoverageStore(client, repo)
    spans = store.spans()
    by_path: dict[str, list[Span]] = defaultdict(list)
    hashes: dict[str, str | None] = {}
    for span in spans:
        body = body_line(span.start_line, span.code) if span.code is not None else 0
        by_path[span.path].append(Span(span.id, span.start_line, span.end_line, body))
        hashes[span.id] = span.content_hash
    paths = map_paths(lines.files, root, by_path)
    if not paths:
        sample = ", ".join(sorted(lines.files)[:3])
        raise InvalidArgumentError(
            f"none of the {len(lines.files)} files the coverage measured ({sample}, ...) is a "
            f"file of {repo!r} (indexed from {root}): record the coverage in the indexed "
            "checkout, or import it into the repository it measured (--repo)"
        )
    tests: dict[str, str] = {}
    cases: set[str] = set()
    for node, path, qualified_name, module, own in store.tests():
        tests[runner_id(path, qualified_name, module)] = node
        tests.setdefault(qualified_name, node)
        for case in own:  # each class that runs an inherited test method: the method's node
            tests[case] = node
            cases.add(case)
    covered = covered_pairs(lines, paths, by_path, tests, cases)
    pairs, unknown = covered.pairs, covered.unknown
    if not pairs and unknown:
        raise InvalidArgumentError(
            f"no context of the coverage names a test of {repo!r} (e.g. {sorted(unknown)[0]}): "
            "run pytest from the repository root, or index the tests too"
        )
    recorded = datetime.fromtimestamp(Path(file).stat().st_mtime, tz=timezone.utc).isoformat()
    edges = sorted(pairs)
    ran = len({test for test, _ in edges})
    kept = sorted(
        (node, value, node in covered.outside)
        for node in covered.measured
        if (value := hashes.get(node)) is not None
    )
    state = {
        "coverage_commit": commit,
        "coverage_recorded_at": recorded,
        "coverage_imported_at": datetime.now(tz=timezone.utc).isoformat(),
        "coverage_tests": ran,
        "coverage_edges": len(edges),
        "coverage_file": str(Path(file).resolve()),
    }
    store.replace(edges, kept, state, covered.cases)
    return CoverageImport(
        repo=repo,
        file=str(file),
        commit=commit,
        recorded_at=recorded,
        contexts=lines.contexts,
        tests=ran,
        edges=len(edges),
        files_measured=len(lines.files),
        files_matched=len(paths),
        measured_nodes=len(kept),
        outside=len(covered.outside),
        unknown_tests=tuple(sorted(unknown)[:20]),
        seconds=round(time.perf_counter() - started, 3),
    )
