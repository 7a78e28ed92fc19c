"""Which test ran which code, from a coverage.py data file recorded with per-test contexts
(`pytest --cov --cov-context=test`), mapped onto the graph: the pure part.

    contexts  `tests/test_x.py::TestA::test_y[1-2]|run` -> the runner id of a graph test
    lines     a covered line -> the innermost function, method or class whose span holds it
    files     the data's absolute paths -> the graph's paths (under its root, else by suffix)
    freshness a node's hash at import against its hash now (or before a diff): `fresh`,
              `changed`, `new` (no coverage then) or `outside` (it also ran outside every
              test); fresh and outside nodes keep the tests that ran

Module-level lines (imports, definitions) run when a module is first imported, under the
context of whichever test imported it first, so they say nothing of a test and are left out.
A function that ran outside every test (at import or collection: the empty context) may
decide what every later test sees (click's `_is_binary_writer`, a mutant of which failed
seven tests that never ran it), so the static prediction is added to the tests that ran it.

A parametrised test is one node, but each of its cases (`test_y[1-2]`) is a context of its
own: where only some of a test's cases ran a node, its RAN edge keeps those cases, so that
the tests to run name them (`pytest 'tests/t.py::test_y[1-2]'`), not the whole table — with
every case that ran after the first of them: what the node left in a class or module (a
cache the first case filled: cleo's `Table._styles`, whose `TableStyle()` calls only the
first rendering case runs) the later cases read without running it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..errors import InvalidArgumentError

__all__ = [
    "CoverageLines",
    "Covered",
    "Freshness",
    "Span",
    "body_line",
    "case_ids",
    "covered_pairs",
    "freshness",
    "innermost_lines",
    "map_paths",
    "read_coverage",
    "runner_of_context",
]

Freshness = Literal["fresh", "changed", "new", "outside"]
# what pytest-cov appends to a test's id: the phase the line ran in
_PHASES = ("|setup", "|run", "|teardown")


@dataclass(frozen=True)
class Span:
    """A function, method or class of the graph: its node and lines (both inclusive), and
    the first line of its body (what runs when it is called, not when it is defined; past
    `end` for a class, whose body runs at import)."""

    id: str
    start: int
    end: int
    body: int = 0


def body_line(start: int, code: str | None) -> int:
    """The first line of a function's body, from its code as the graph keeps it (decorators
    first): the line after the one that ends its header (`def ...:`), where the header's own
    lines run when the function is defined, at import."""
    if not code:
        return start
    lines = code.splitlines()
    seen_def = False
    for number, text in enumerate(lines):
        stripped = text.split("#", 1)[0].rstrip()
        seen_def = seen_def or stripped.lstrip().startswith(("def ", "async def "))
        if seen_def and stripped.endswith(":"):
            return start + number + 1
    return start + len(lines)  # one line: it runs when defined, so it never counts


@dataclass(frozen=True)
class CoverageLines:
    """What a data file holds: absolute path -> line -> the contexts that ran it."""

    files: dict[str, dict[int, tuple[str, ...]]]
    contexts: int  # measured contexts, the empty (no test) one included
    # context -> its place in the run (the data file numbers contexts as they start); empty
    # where the order is not known: a parametrised test's cases are then never told apart
    order: dict[str, int] = field(default_factory=dict)


def runner_of_context(context: str) -> str | None:
    """The test a context names, without the phase and the parameters (a parametrised test
    is one node of the graph): a runner id (`tests/test_x.py::TestA::test_y`, pytest-cov)
    or a qualified name (`tests.test_x.TestA.test_y`, coverage's `test_function`); None for
    the empty context (code run outside any test: collection, imports)."""
    for phase in _PHASES:
        if context.endswith(phase):
            context = context[: -len(phase)]
            break
    return context.split("[", 1)[0] or None


def innermost_lines(spans: Sequence[Span], lines: Iterable[int]) -> dict[int, str]:
    """Line -> the node of the innermost span holding it (the shortest; the later one where
    two are as long); lines outside every span are left out."""
    owner: dict[int, str] = {}
    wanted = set(lines)
    if not wanted:
        return owner
    # larger spans first: a nested one written later overrides its outer one
    for span in sorted(spans, key=lambda s: (-(s.end - s.start), s.start)):
        for line in range(max(span.start, min(wanted)), min(span.end, max(wanted)) + 1):
            if line in wanted:
                owner[line] = span.id
    return owner


def map_paths(measured: Iterable[str], root: str | None, known: Iterable[str]) -> dict[str, str]:
    """Each measured file -> the graph's path of it: relative to the repository's `root`
    when under it (the usual case), else the longest graph path it ends with (coverage
    recorded in another checkout, a CI runner's); files of no graph path are left out."""
    graph = set(known)
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in graph:
        by_name[path.rpartition("/")[2]].append(path)
    base = os.path.realpath(root) if root else None
    found: dict[str, str] = {}
    for file in measured:
        posix = Path(file).as_posix()
        if base is not None:
            relative = os.path.relpath(os.path.realpath(file), base).replace(os.sep, "/")
            if relative in graph:
                found[file] = relative
                continue
        suffixes = [p for p in by_name.get(posix.rpartition("/")[2], ()) if posix.endswith("/" + p)]
        if suffixes:
            found[file] = max(suffixes, key=len)
    return found


@dataclass(frozen=True)
class Covered:
    """What a coverage run says of the graph."""

    pairs: set[tuple[str, str]]  # (test node, code node): the test ran a line of the code
    unknown: set[str]  # runner ids of contexts that name no graph test
    measured: set[str]  # the nodes of the measured files: one no test ran was not run
    outside: set[str]  # nodes with a line run outside every test (the empty context)
    # (test node, code node) -> the cases of the test that ran it (runner ids), for a test
    # method run as several cases (`TestUnit.case`: a class inheriting it), each its own
    # context, and for a parametrised test only some of whose cases ran it (`case_ids`)
    cases: dict[tuple[str, str], set[str]] = field(default_factory=dict)


def covered_pairs(
    lines: CoverageLines,
    paths: Mapping[str, str],
    spans: Mapping[str, Sequence[Span]],
    tests: Mapping[str, str],
    cases: Set[str] = frozenset(),
) -> Covered:
    """Map every covered line inside a span onto the tests whose contexts ran it (`cases`:
    the runner ids of `tests` that name one case of a test method several classes run), and
    each pair onto the cases of the test that ran it (`case_ids`)."""
    pairs: set[tuple[str, str]] = set()
    by_item: dict[tuple[str, str], set[str]] = defaultdict(set)
    items: dict[str, set[str]] = defaultdict(set)  # runner id -> the items its contexts name
    started: dict[str, int] = {}  # item -> its first context's place in the run
    inherited: set[str] = set()  # test nodes run as several cases (`cases`)
    unknown: set[str] = set()
    measured: set[str] = set()
    outside: set[str] = set()
    test_of: dict[str, str | None] = {}
    item_of: dict[str, str] = {}
    for file, by_line in lines.files.items():
        path = paths.get(file)
        file_spans = spans.get(path, ()) if path is not None else ()
        measured.update(span.id for span in file_spans)
        bodies = {span.id: span.body or span.end + 1 for span in file_spans}
        owner = innermost_lines(file_spans, by_line)
        for line, contexts in by_line.items():
            node = owner.get(line)
            for context in contexts:
                if context not in test_of:  # every item of a test, wherever it ran
                    runner = runner_of_context(context)
                    test_of[context] = tests.get(runner) if runner else None
                    item_of[context] = _item(context)
                    if context in lines.order:
                        rank = started.get(item_of[context], lines.order[context])
                        started[item_of[context]] = min(rank, lines.order[context])
                    if runner:
                        items[runner].add(item_of[context])
                        if runner in cases and runner in tests:
                            inherited.add(tests[runner])
                if node is None:
                    continue
                test = test_of[context]
                if test is not None and test != node:
                    pairs.add((test, node))
                    by_item[(test, node)].add(item_of[context])
                elif test is None and (runner := runner_of_context(context)) is not None:
                    unknown.add(runner)
                elif test is None and line >= bodies[node]:
                    outside.add(node)  # its body ran outside every test
    by_case: dict[tuple[str, str], set[str]] = {}
    for pair, ran in by_item.items():
        chosen = case_ids(ran, items, started)
        # a test method some classes inherit names its cases always (`TestUnit.case`), a
        # parametrised one only where some of its cases did not run the node
        if pair[0] in inherited or any(c != runner_of_context(c) for c in chosen):
            by_case[pair] = chosen
    return Covered(pairs, unknown, measured, outside, by_case)


def _item(context: str) -> str:
    """The pytest item a context names: its runner id with the parameters, without the
    phase (`tests/t.py::test_y[1-2]|run` -> `tests/t.py::test_y[1-2]`)."""
    for phase in _PHASES:
        if context.endswith(phase):
            return context[: -len(phase)]
    return context


def case_ids(ran: Set[str], items: Mapping[str, Set[str]], started: Mapping[str, int]) -> set[str]:
    """What to run of the items in `ran` (a test's cases that ran some code): for each test,
    the items of it that ran it and every item of it (`items`: runner id -> the items the
    coverage names) that started after the first of them (`started`: item -> its place in
    the run; they may read what the code left), or the test's runner id where that is all
    of its items, or the order of one of them is not known."""
    chosen: set[str] = set()
    by_runner: dict[str, set[str]] = defaultdict(set)
    for item in ran:
        by_runner[runner_of_context(item) or item].add(item)
    for runner, mine in by_runner.items():
        every = items.get(runner, mine)
        if runner in mine or any(item not in started for item in every | mine):
            chosen.add(runner)
            continue
        first = min(started[item] for item in mine)
        later = mine | {item for item in every if started[item] > first}
        chosen.update((runner,) if later >= every else later)
    return chosen


def freshness(recorded: str | None, current: str | None, *, outside: bool = False) -> Freshness:
    """Whether the tests that ran a node still tell which tests run it: `fresh` when its
    content is the one the coverage was recorded against, `changed` when it differs since,
    `new` when the coverage does not know it (added since, or its file was not measured),
    `outside` when it also ran outside every test (what it did then, every test may see)."""
    if recorded is None:
        return "new"
    if recorded != current:
        return "changed"
    return "outside" if outside else "fresh"


def read_coverage(file: str | Path) -> CoverageLines:
    """The lines of a coverage.py data file with the contexts that ran each (needs the
    `coverage` package: `pip install coverage`, or pytest-cov which brings it)."""
    try:
        from coverage import CoverageData
        from coverage.exceptions import DataError
    except ImportError as error:
        raise InvalidArgumentError(
            "reading coverage needs the `coverage` package: pip install coverage "
            "(pytest-cov installs it)"
        ) from error
    path = Path(file)
    if not path.is_file():
        raise InvalidArgumentError(f"no coverage data file at {path}")
    data = CoverageData(basename=str(path))
    try:
        data.read()
        contexts = data.measured_contexts()
        files = {
            measured: {
                line: tuple(found) for line, found in data.contexts_by_lineno(measured).items()
            }
            for measured in sorted(data.measured_files())
        }
    except DataError as error:
        raise InvalidArgumentError(f"{path} is not a coverage.py data file: {error}") from error
    if not files:
        raise InvalidArgumentError(f"{path} measured no file")
    if not any(context for context in contexts):
        raise InvalidArgumentError(
            f"{path} has no per-test contexts: record with `pytest --cov --cov-context=test` "
            "(or `dynamic_context = test_function` in the coverage configuration)"
        )
    return CoverageLines(files, len(contexts), _context_order(path))


def _context_order(path: Path) -> dict[str, int]:
    """Each context's place in the run: its row in the data file's context table, which
    coverage.py fills as each context starts (empty if the file cannot be read so)."""
    try:
        with contextlib.closing(
            sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        ) as db:
            rows = db.execute("SELECT id, context FROM context").fetchall()
    except sqlite3.Error:
        return {}
    return {str(context): int(number) for number, context in rows}
