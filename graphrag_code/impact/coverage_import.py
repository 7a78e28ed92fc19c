"""Import a coverage.py data file with per-test contexts, or a directory of JavaScript
coverage recorded one test file at a time, into the graph: RAN edges from each test to the
functions, methods and classes it ran, and each measured node's content hash at
import, replacing the previous import (`CodeGraph.import_coverage`)."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..errors import InvalidArgumentError
from ..graph import Neo4jClient
from ..graph.coverage import CoverageStore
from .coverage import Covered, Span, body_line, covered_pairs, map_paths, read_coverage
from .coverage_js import js_covered_pairs, read_js_coverage
from .tests import runner_id
from .unindexed import UnindexedTest, unindexed_tests

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
    notes: tuple[str, ...] = ()  # what was left out, and why


def import_coverage(
    client: Neo4jClient, repo: str, file: str | Path, *, root: str | None, commit: str | None
) -> CoverageImport:
    """Read `file` (a coverage.py data file, or a directory of JavaScript coverage: one
    folder per test file, `coverage_js.py`), map it onto the graph of `repo` (indexed from
    `root`) and store it."""
    started = time.perf_counter()
    store = CoverageStore(client, repo)
    by_path: dict[str, list[Span]] = defaultdict(list)
    hashes: dict[str, str | None] = {}
    for span in store.spans():
        body = body_line(span.start_line, span.code) if span.code is not None else 0
        by_path[span.path].append(Span(span.id, span.start_line, span.end_line, body))
        hashes[span.id] = span.content_hash
    if Path(file).is_dir():
        read = _read_js(store, Path(file), by_path, root)
    else:
        read = _read_python(store, Path(file), by_path, root)
    if not read.paths:
        sample = ", ".join(sorted(read.files)[:3])
        raise InvalidArgumentError(
            f"none of the {len(read.files)} files the coverage measured ({sample}, ...) is a "
            f"file of {repo!r} (indexed from {root}): record the coverage in the indexed "
            "checkout, or import it into the repository it measured (--repo)"
        )
    covered = read.covered
    pairs, unknown = covered.pairs, covered.unknown
    if not pairs and unknown:
        raise InvalidArgumentError(
            f"no {read.context} of the coverage names a test of {repo!r} (e.g. "
            f"{sorted(unknown)[0]}): {read.hint}"
        )
    recorded = datetime.fromtimestamp(read.recorded, tz=timezone.utc).isoformat()
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
    store.replace_unindexed([test.row() for test in read.unindexed])
    store.replace(edges, kept, state, covered.cases)
    return CoverageImport(
        repo=repo,
        file=str(file),
        commit=commit,
        recorded_at=recorded,
        contexts=read.contexts,
        tests=ran,
        edges=len(edges),
        files_measured=len(read.files),
        files_matched=len(read.paths),
        measured_nodes=len(kept),
        outside=len(covered.outside),
        unknown_tests=tuple(sorted(unknown)[:20]),
        seconds=round(time.perf_counter() - started, 3),
        notes=read.notes,
    )


@dataclass(frozen=True)
class _Read:
    """A coverage run mapped onto the graph, before it is stored."""

    covered: Covered
    files: Collection[str]  # the files it measured
    paths: dict[str, str]  # ... those of the graph: measured file -> graph path
    contexts: int
    recorded: float  # when it was written (seconds since the epoch)
    context: str  # what names a test in it, and how to make them name the graph's
    hint: str
    notes: tuple[str, ...] = ()
    unindexed: tuple[UnindexedTest, ...] = ()  # tests it names that the index has no node for


def _read_python(
    store: CoverageStore, file: Path, by_path: dict[str, list[Span]], root: str | None
) -> _Read:
    lines = read_coverage(file)
    paths = map_paths(lines.files, root, by_path)
    tests: dict[str, str] = {}
    cases: set[str] = set()
    for node, path, qualified_name, module, own in store.tests():
        tests[runner_id(path, qualified_name, module)] = node
        tests.setdefault(qualified_name, node)
        for case in own:  # each class that runs an inherited test method: the method's node
            tests[case] = node
            cases.add(case)
    covered = covered_pairs(lines, paths, by_path, tests, cases) if paths else _NOTHING
    # tests the index cannot see (a text file's doctests), where the run names the graph's
    unindexed = unindexed_tests(store.repo, covered.unknown) if covered.pairs else []
    notes: tuple[str, ...] = ()
    if unindexed:
        tests.update((test.runner, test.id) for test in unindexed)
        covered = covered_pairs(lines, paths, by_path, tests, cases)
        notes = (
            f"{len(unindexed)} test(s) the coverage names have no node in the index (e.g. "
            f"{unindexed[0].runner}: a doctest of a text file?): added as tests of its own",
        )
    return _Read(
        covered, lines.files, paths, lines.contexts, file.stat().st_mtime, "context",
        "run pytest from the repository root, or index the tests too", notes,
        tuple(unindexed),
    )  # fmt: skip


def _read_js(
    store: CoverageStore, folder: Path, by_path: dict[str, list[Span]], root: str | None
) -> _Read:
    coverage = read_js_coverage(folder, root)
    measured = coverage.measured()
    paths = map_paths(measured, root, by_path)
    tests = {
        path: node
        for node, path, qualified_name, module, _ in store.tests()
        if runner_id(path, qualified_name, module) == path  # a test that is a whole file
    }

    def text_of(path: str) -> str | None:
        try:
            return (Path(root) / path).read_text(encoding="utf-8") if root else None
        except (OSError, UnicodeDecodeError):
            return None

    covered = js_covered_pairs(coverage, paths, by_path, tests, text_of) if paths else _NOTHING
    notes: tuple[str, ...] = ()
    if coverage.needs_source_maps:
        notes = (
            f"{len(coverage.needs_source_maps)} file(s) of V8 coverage were compiled "
            f"(e.g. {coverage.needs_source_maps[0]}) and Node kept no source map of them: V8 "
            "offsets point into the emitted JavaScript, so they were left out; run with "
            "source maps (tsx, node --enable-source-maps) or record an Istanbul JSON "
            "report (c8 --reporter=json, jest/vitest --coverage)",
        )
    return _Read(
        covered, measured, paths, len(coverage.runs), coverage.newest, "test-file.txt",
        "name each test file by its path from the repository root, and index the tests too",
        notes,
    )  # fmt: skip


_NOTHING = Covered(set(), set(), set(), set())
