"""Tests to run for a change, tests for a symbol or file, and public code no test reaches,
all read from the reach graph the ingest stage keeps (REACHES edges and `test_reach`; see
`ingest/tests_stage.py`)."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..conventions import exercising
from ..graph import GraphReader
from ..graph.records import TestEdge
from ..languages import language_named, routes
from ..model import CERTAIN_TIERS, Resolution
from .coverage import Freshness, freshness
from .import_failures import import_failure_tests
from .kept import KEPT, kept_state_tests
from .programs import PROCESS, process_tests
from .records import ChangedSymbol, CoverageUse, TestToRun, UntestedSymbol

__all__ = [
    "INTERFACE",
    "RAN",
    "TESTS_CUT",
    "affinity",
    "change_tests",
    "coverage_tests",
    "coverage_use",
    "exercising_tests",
    "interface_changed",
    "listing_reason",
    "ran_tests",
    "reaching_tests",
    "run_order",
    "runner_id",
    "untested_symbols",
]  # fmt: skip

_CERTAIN = (*CERTAIN_TIERS, None)
_FAR = 1_000  # the distance of a test no static chain leads from
RAN = "ran"  # the resolution of a test's edge into code it ran under coverage (a RAN edge)
_RANK = {resolution.value: resolution.rank for resolution in Resolution}  # of a REACHES edge
_TEST_WORDS = frozenset({"test", "tests"})
# what a change of a function's interface shows as: its kind (a generator made a plain
# function), parameters, defaults or decorators (`signature`); a renamed or moved symbol
# changed its name. Coverage sees the lines a test ran, not that a test built a call, read a
# parameter or a name without running a line: the static prediction is run for them
INTERFACE = frozenset({"signature", "kind"})
# The certain part of the reach graph (exact and inferred chains) is walked whole, up to
# MAX_CERTAIN nodes; chains through name matches only breadth first, nearest first, until the
# walk holds POSSIBLE_BUDGET nodes: in Django a few name matches lead back from almost any
# node to nearly all 15.6k tests, which says little about the node and takes seconds to read.
MAX_CERTAIN = 200_000
POSSIBLE_BUDGET = 3_000
TESTS_CUT = (
    f"the walk back to the tests was cut (chains through name matches are followed "
    f"{POSSIBLE_BUDGET:,} nodes back): tests reached only from further away are not listed"
)


def runner_id(path: str, qualified_name: str, module: str | None) -> str:
    """What a test runner takes: the language's own form where it has one
    (`Language.runner_id`), else `tests/test_x.py::TestA::test_y` (pytest), or the file for a
    test that is a whole file (Jest, Vitest, Mocha). A runner id the index stored with the
    test (`TestUnit.runner`: Java's Maven or Gradle) comes first (`TestEdge.runner`)."""
    language = routes().suffixes.get(posixpath.splitext(path)[1])
    own = language_named(language).runner_id if language is not None else None
    if own is not None:
        return own(path, qualified_name, module)
    if not module or not qualified_name.startswith(module + "."):
        return path
    return path + "::" + qualified_name[len(module) + 1 :].replace(".", "::")


@dataclass
class _Test:
    edge: TestEdge
    reaches: list[str] = field(default_factory=list)
    # the most specific change of each node reached (a method, not also its changed class):
    # what the order counts, so that nesting does not count a change twice
    specific: set[str] = field(default_factory=set)
    distance: int = _FAR
    certain: bool = False
    via: str | None = None
    changed: bool = False
    affinity: int = 0
    ran: bool = False  # ran a reached node, unchanged since, under imported coverage
    kept: str | None = None  # why it reads what a reached node kept (`impact.kept`)
    process: str | None = None  # why it may run a reached node in a child (`impact.programs`)
    interface: bool = False  # reaches a node whose interface changed (`INTERFACE`)
    # to be run: it changed, ran or read the change, or reaches code whose coverage is not
    # fresh (or none was imported); else a static prediction the coverage contradicts
    selected: bool = False
    added: list[tuple[TestEdge, tuple[str, ...]]] = field(default_factory=list)  # its edges

    def add(
        self,
        edge: TestEdge,
        subjects: Sequence[str],
        paths: Mapping[str, str],
        fresh: frozenset[str] = frozenset(),
        interface: frozenset[str] = frozenset(),
    ) -> None:
        """One edge into a node that stands for `subjects`, the most specific first
        (`fresh`: the nodes whose imported coverage is fresh and speaks for the change;
        `interface`: the nodes whose interface changed)."""
        test = self.edge.test
        self.added.append((edge, tuple(subjects)))
        for subject in subjects:
            if subject not in self.reaches:
                self.reaches.append(subject)
            named = affinity(test.qualified_name, test.location.path, subject, paths.get(subject))
            self.affinity = max(self.affinity, named)
        self.specific.add(subjects[0])
        # what ran or read it, what changed, and predictions the coverage cannot contradict
        self.selected = (
            self.selected
            or edge.resolution in (RAN, KEPT, PROCESS)
            or edge.target not in fresh
            or edge.distance == 0
        )
        if edge.resolution == KEPT:
            self.kept = self.kept or edge.via
            return
        if edge.resolution == PROCESS:
            self.process = self.process or edge.via
            return
        if edge.resolution == RAN:
            # ran it: first in `run_order`; among such tests the static chain (if any) still
            # orders them, nearest first, and tests that only ran it come after those
            self.ran = True
            return
        certain = edge.resolution in _CERTAIN
        if (not self.certain and certain) or (
            certain == self.certain and edge.distance < self.distance
        ):
            self.distance, self.certain, self.via = edge.distance, certain, edge.via
        self.changed = self.changed or edge.distance == 0
        self.interface = self.interface or edge.target in interface

    def runners(self) -> tuple[str, ...]:
        """The ids the runner runs it by: its own, or (a test method classes inherit, a
        parametrised test's cases that ran the change, `TestEdge.cases`) one per case."""
        test = self.edge.test
        own = self.edge.runner or runner_id(
            test.location.path, test.qualified_name, self.edge.module
        )
        return self.edge.cases or (own,)

    def results(self) -> list[TestToRun]:
        """The test as the runner runs it: once, or once per case, each under its own id."""
        return [self.result(case) for case in self.runners()]

    def result(self, runner: str) -> TestToRun:
        test = self.edge.test
        return TestToRun(
            id=test.id,
            qualified_name=test.qualified_name,
            location=test.location,
            runner_id=runner,
            reaches=tuple(self.reaches),
            # a test that only ran it (no static chain): one step, as a direct call
            distance=self.distance if self.distance < _FAR else 1,
            certain=self.certain or self.ran or self.kept is not None or self.process is not None,
            via=self.via,
            changed=self.changed,
            affinity=self.affinity,
            ran=self.ran,
            reason=listing_reason(
                changed=self.changed,
                ran=self.ran,
                certain=self.certain,
                distance=self.distance,
                kept=self.kept,
                extra=not self.selected,
                interface=self.interface,
                process=self.process,
            ),
            kept=self.kept,
            extra=not self.selected,
        )


def listing_reason(
    *,
    changed: bool,
    ran: bool,
    certain: bool,
    distance: int,
    kept: str | None = None,
    extra: bool = False,
    interface: bool = False,
    process: str | None = None,
) -> str:
    """Why a test is listed, in words: what `run_order` ranks it by first (`interface`: it
    reaches code whose interface changed, which the coverage cannot see a test read;
    `process`: it may run it in a child process, `impact.programs`)."""
    if changed:
        return "changed"
    if ran:
        return "ran it (coverage)"
    if kept:
        return f"reads what it kept (coverage: {kept})"
    if process:
        return f"may run it in a child process ({process}; coverage records none)"
    steps = f"{distance} step{'s' if distance != 1 else ''}"
    reaches = f"reaches it ({'certain' if certain else 'possible'}, {steps})"
    if extra:
        return f"extra: {reaches}, but did not run it (coverage)"
    return f"{reaches}; its interface changed (coverage cannot see that)" if interface else reaches


def run_order(
    *,
    changed: bool,
    affinity: int,
    certain: bool,
    distance: int,
    reaches: int,
    ran: bool = False,
    kept: bool = False,
    extra: bool = False,
) -> tuple[bool, bool, bool, bool, bool, int, int, int]:
    """The sort key of a test to run (ties go by the test's name): changed tests first, then
    tests that ran the changed code under coverage recorded before the change (issue 54:
    what ran is known, what reaches is predicted), then those that read what it kept
    (`impact.kept`), and the `extra` ones (static predictions for code whose fresh coverage
    says they did not run it) after every other; then tests that reach the change through
    certain chains before those that reach it only through possible ones (name matches,
    dispatch: issue 50, a low-precision tier never decides a ranking), then tests named
    after what they reach (`affinity`), nearest first, then the tests that reach more of a
    change.

    Certain chains come before distance since stop 47: ranked by distance first, a test one
    name match away came before one three certain calls away. Against the tests that ran each
    function under coverage, a test that ran now outranks one that did not more often, on all
    five packages measured (`benchmarks/impact/impact_tests_order.py`); the changed tests of the
    histories' commits rank the same (BENCHMARKS.md §10a and §10c, stop 47)."""
    return (not changed, extra, not ran, not kept, not certain, -affinity, distance, -reaches)


def _ranked(tests: Iterable[_Test]) -> list[TestToRun]:
    def key(t: _Test) -> tuple[tuple[bool, bool, bool, bool, bool, int, int, int], str]:
        order = run_order(
            changed=t.changed, affinity=t.affinity, certain=t.certain, distance=t.distance,
            reaches=len(t.specific), ran=t.ran, kept=t.kept is not None or t.process is not None,
            extra=not t.selected,
        )  # fmt: skip
        return order, t.edge.test.qualified_name

    return [case for t in sorted(tests, key=key) for case in t.results()]


def affinity(test: str, test_path: str, subject: str, subject_path: str | None) -> int:
    """How plainly a test names what it tests: 2 when its name holds the subject's name
    (`test_echo_via_pager` for `echo_via_pager`), 1 when its file is named after the subject's
    module (`tests/test_termui.py` for `click/termui.py`), else 0."""
    short = subject.rsplit(".", 1)[-1].strip("_").lower()
    # ("test", "tests": every test's name holds them, so they say nothing of what it tests)
    if len(short) >= 4 and short not in _TEST_WORDS and short in test.rsplit(".", 1)[-1].lower():
        return 2
    if subject_path:
        module = subject_path.rpartition("/")[2].split(".", 1)[0].strip("_").lower()
        stem = test_path.rpartition("/")[2].split(".", 1)[0].lower()
        if module not in ("", "init", "index", "main", "utils") and module in stem:
            return 1
    return 0


def reaching_tests(reader: GraphReader, targets: Sequence[str]) -> tuple[list[TestEdge], bool]:
    """For each of `targets`, the tests from which a REACHES chain leads to it, with the best
    tier, that tier's distance and the fixture the chain starts with; and whether a walk was
    cut (certain chains are walked whole up to `MAX_CERTAIN` nodes, chains through name
    matches only as far as `POSSIBLE_BUDGET` nodes back: tests further away are missing)."""
    certain = reader.reach_back(targets, resolutions=CERTAIN_TIERS, limit=MAX_CERTAIN)
    possible = reader.reach_back(targets, limit=POSSIBLE_BUDGET)
    callers: dict[str, set[tuple[str, int, str | None]]] = defaultdict(set)
    for back in (certain, possible):
        for node, edges in back.callers.items():
            callers[node].update((s, _RANK[resolution], via) for s, resolution, via in edges)
    graph = {node: sorted(edges, key=str) for node, edges in callers.items()}
    tests = certain.tests | possible.tests
    found = {target: exercising(target, graph, tests) for target in targets}
    nodes = reader.test_nodes(sorted({test for hits in found.values() for test in hits}))
    reached = [
        TestEdge(target, nodes[test][0], hit.distance, hit.resolution, hit.via, *nodes[test][1:])
        for target, hits in found.items()
        for test, hit in sorted(hits.items())
        if test in nodes
    ]
    return reached, certain.truncated or possible.truncated


def coverage_tests(
    reader: GraphReader,
    targets: Sequence[str],
    base: Mapping[str, str],
    interface: frozenset[str] = frozenset(),
) -> tuple[list[TestEdge], dict[str, str], frozenset[str]]:
    """Edges (distance 1) from the tests that ran each of `targets` under imported coverage
    (resolution `ran`), for the targets whose content is still the one it was recorded
    against (`base`: a node's hash before the change, else its hash now), and from the tests
    that read what such a target kept (`impact.kept`, resolution `kept`) or whose import
    runs it (`impact.import_failures`, resolution `kept`); the others'
    freshness (`changed`, `new`, `outside`): those are predicted statically; and the fresh
    targets, whose static predictions are extras. A target that also ran outside every test
    keeps the tests that ran it besides: they do run it (a module `__getattr__` no call
    edge reaches), the static prediction adds those that may see what it did outside them.
    So does a fresh target whose interface changed (`interface`: `INTERFACE`): a test can
    read a function's kind or parameters without running a line of it (aiostream's
    `stream.throw`, made a coroutine function, failed a test that only built the stream),
    so it is `interface`, and its static prediction is to be run, not an extra."""
    ran: dict[str, tuple[str, ...]] = {}
    ran_as: dict[tuple[str, str], tuple[str, ...]] = {}  # (target, test) -> its cases that ran it
    stale: dict[str, str] = {}
    states: dict[str, Freshness] = {}
    for into in reader.ran_into(targets):
        state = freshness(
            into.coverage_hash, base.get(into.id, into.content_hash), outside=into.outside
        )
        states[into.id] = state
        if state in ("fresh", "outside"):
            ran[into.id] = into.tests
            ran_as.update(((into.id, test), cases) for test, cases in into.cases.items())
        if state != "fresh":
            stale[into.id] = state
    kept = kept_state_tests(reader, states) if states else {}
    read = [(target, why, tests) for target, (why, tests) in sorted(kept.items())]
    for target, (why, tests) in sorted(import_failure_tests(reader, states).items()):
        known = {*ran.get(target, ()), *kept.get(target, ("", ()))[1]}
        read.append((target, why, tuple(test for test in tests if test not in known)))
    spawned = process_tests(reader, targets)  # with or without coverage: neither sees them
    every = {test for tests in ran.values() for test in tests}
    every.update(test for _, _, tests in read for test in tests)
    every.update(test for _, tests in spawned.values() for test in tests)
    nodes = reader.test_nodes(sorted(every))
    edges = [
        _ran_as(TestEdge(target, nodes[test][0], 1, RAN, None, *nodes[test][1:]), ran_as)
        for target, tests in sorted(ran.items())
        for test in tests
        if test in nodes
    ]
    edges += [
        TestEdge(target, nodes[test][0], 1, KEPT, why, *nodes[test][1:])
        for target, why, tests in read
        for test in tests
        if test in nodes
    ]
    edges += [
        TestEdge(target, nodes[test][0], 1, PROCESS, why, *nodes[test][1:])
        for target, (why, tests) in sorted(spawned.items())
        for test in tests
        if test in nodes
    ]
    for node in sorted(interface):
        if states.get(node) == "fresh":
            stale[node] = "interface"
    fresh = frozenset(
        node for node, state in states.items() if state == "fresh" and node not in interface
    )
    return edges, stale, fresh


def _ran_as(edge: TestEdge, ran_as: Mapping[tuple[str, str], tuple[str, ...]]) -> TestEdge:
    """A RAN edge of a test method several classes run: of the cases that ran the target."""
    cases = ran_as.get((edge.target, edge.test.id))
    return replace(edge, cases=cases) if cases else edge


def ran_tests(
    reader: GraphReader, targets: Sequence[str], base: Mapping[str, str]
) -> tuple[list[TestEdge], dict[str, str]]:
    """`coverage_tests` without the fresh targets."""
    edges, stale, _ = coverage_tests(reader, targets, base)
    return edges, stale


def exercising_tests(
    reader: GraphReader,
    targets: Mapping[str, Sequence[str]],
    *,
    inside: Sequence[str] = (),
    paths: Mapping[str, str] | None = None,
    base: Mapping[str, str] | None = None,
    interface: frozenset[str] = frozenset(),
) -> tuple[list[TestToRun], bool, dict[str, str]]:
    """The tests reaching any of `targets` (node id -> the subjects it stands for, the most
    specific first: a method stands for itself, then for its changed class and module), and
    the tests defined inside the nodes `inside` (changed tests run themselves), ranked by
    `run_order` (`paths`: subject -> its file, for the affinity): the tests that ran a
    target under coverage (`ran_tests`; `base`: node -> its hash before the change) first;
    whether the walk back was cut (`reaching_tests`); and the targets whose coverage is
    stale (node -> `changed` or `new`), or blind to the change (`interface`: the nodes whose
    interface changed, `coverage_tests`)."""
    found: dict[tuple[str, str], _Test] = {}
    edges, truncated = reaching_tests(reader, list(targets)) if targets else ([], False)
    ran, stale, fresh = (
        coverage_tests(reader, list(targets), base or {}, interface)
        if targets
        else ([], {}, frozenset())
    )
    edges += ran
    edges += reader.tests_inside(list(inside)) if inside else []
    # a test method several classes run is a test per case, each selected by its own edges
    # (the coverage of one case says nothing of another's: each class sets up other code)
    for case in (one for edge in edges for one in _per_case(edge)):
        entry = found.setdefault((case.test.id, ",".join(case.cases)), _Test(case))
        subjects = targets.get(case.target) or (case.test.qualified_name,)
        entry.add(case, subjects, paths or {}, fresh, interface)
    for case_of, whole in _folded(found):
        for edge, subjects in found.pop(case_of).added:
            found[whole].add(
                replace(edge, cases=found[whole].edge.cases), subjects, paths or {}, fresh,
                interface,
            )  # fmt: skip
    return _ranked(found.values()), truncated, stale


def _folded(
    found: Mapping[tuple[str, str], _Test],
) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """(a parametrised case's entry, the entry of its whole test) where the whole test is
    to be run as well (another change's edge selects it): it runs every case, so the case
    folds into it rather than being listed twice. A whole test that is only an extra keeps
    its cases apart: they are to run, the rest of its table is not."""
    whole = {
        (key[0], runner): key
        for key, entry in found.items()
        if entry.selected
        for runner in entry.runners()
    }
    return [
        (key, whole[(key[0], key[1].split("[", 1)[0])])
        for key in found
        if "[" in key[1] and (key[0], key[1].split("[", 1)[0]) in whole
    ]


def _per_case(edge: TestEdge) -> list[TestEdge]:
    """An edge of a test method several classes run (`TestEdge.cases`): one per case."""
    if len(edge.cases) < 2:
        return [edge]
    return [replace(edge, cases=(case,)) for case in edge.cases]


def coverage_use(
    reader: GraphReader, repo: str, subjects: Mapping[str, Sequence[str]], stale: Mapping[str, str]
) -> CoverageUse | None:
    """How imported coverage served a question: None when `repo` has none; else its state
    and the subjects (of node -> subjects) predicted statically because they changed since
    the coverage was recorded, are new to it, or ran outside every test."""
    state = reader.coverage_state(repo)
    if state is None:
        return None
    static: dict[str, str] = {}
    for node, why in sorted(stale.items()):
        for subject in subjects.get(node, ())[:1]:
            if why != "new" or subject not in static:
                static[subject] = why
    return CoverageUse(
        commit=state.commit,
        recorded_at=state.recorded_at,
        tests=state.tests,
        static=tuple(sorted(static.items())),
    )


def _targets(reader: GraphReader, change: ChangedSymbol) -> list[str]:
    """The nodes a changed symbol stands for: itself, and what a class or module defines."""
    if change.id is None:
        return []
    if change.kind in ("Class", "Module"):
        return reader.descendants(change.id)
    return [change.id]


def interface_changed(change: ChangedSymbol) -> bool:
    """Whether a change alters how callers see the symbol: its kind, parameters, defaults or
    decorators (`INTERFACE`), or its name (renamed or moved)."""
    return change.change in ("renamed", "moved") or bool(INTERFACE & set(change.aspects))


def change_tests(
    reader: GraphReader, changes: Sequence[ChangedSymbol]
) -> tuple[list[TestToRun], list[ChangedSymbol], bool, dict[str, str]]:
    """The tests to run for `changes`, ranked, the changed code no test reaches, whether
    the walk back to the tests was cut (`reaching_tests`), and the nodes whose coverage is
    stale (`exercising_tests`): a changed symbol's coverage is judged against its content
    before the change (`ChangedSymbol.old_hash`)."""
    targets: dict[str, list[str]] = defaultdict(list)
    inside: list[str] = []
    per_change: dict[str, list[str]] = {}
    for change in changes:
        if change.change == "removed":
            continue
        nodes = _targets(reader, change)
        per_change[change.qualified_name] = nodes
        if change.test_code and change.id is not None:
            inside.append(change.id)
        for node in nodes:  # each change a node is part of: none is left without its tests
            targets[node].append(change.qualified_name)
    for subjects in targets.values():  # the most specific (the fewest nodes) first
        subjects.sort(key=lambda subject: len(per_change[subject]))
    paths = {c.qualified_name: c.location.path for c in changes}
    base = {c.id: c.old_hash for c in changes if c.id is not None and c.old_hash is not None}
    interface = frozenset(c.id for c in changes if c.id is not None and interface_changed(c))
    tests, truncated, stale = exercising_tests(
        reader, targets, inside=inside, paths=paths, base=base, interface=interface
    )
    reached = {subject for test in tests for subject in test.reaches}
    untested = [
        c
        for c in changes
        if c.change != "removed"
        and not c.test_code
        and c.kind != "Module"
        and c.aspects != ("formatting",)
        and c.qualified_name not in reached
    ]
    return tests, untested, truncated, stale


def untested_symbols(reader: GraphReader, repo: str, *, limit: int = 200) -> list[UntestedSymbol]:
    """Public code outside tests that no test reaches, most central first."""
    return [
        UntestedSymbol(
            id=u.symbol.id,
            qualified_name=u.symbol.qualified_name,
            kind=u.symbol.kind,
            location=u.symbol.location,
            callers=u.callers,
            pagerank=u.pagerank,
        )
        for u in reader.untested(repo, limit=limit)
    ]
