"""The typed results of change impact, tests and dead code (what `CodeGraph.diff`,
`tests_for`, `untested` and `dead_code` return)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Literal

from ..graph import AnswerWarning
from ..location import Location
from .changes import ChangeKind

__all__ = [
    "Affected",
    "ChangedSymbol",
    "CoverageUse",
    "DeadSymbol",
    "DiffImpact",
    "FailPolicy",
    "GraphSide",
    "RiskSummary",
    "TestToRun",
    "TestsFor",
    "UntestedSymbol",
]

FailPolicy = Literal["untested-callers", "untested", "high-risk"]
"""When `graphrag-code diff --fail-on` fails: a changed public symbol with certain callers
and no test; any changed public symbol no test reaches; a high risk summary."""


@dataclass(frozen=True)
class ChangedSymbol:
    """A symbol (or module) the change touches."""

    qualified_name: str
    kind: str  # Module, Class, Function, Method
    change: ChangeKind  # added, removed, modified, renamed, moved
    aspects: tuple[str, ...]  # modified: body, signature, docstring, formatting, module level
    location: Location  # on the new side (the old side for a removed symbol)
    language: str
    id: str | None  # its node in the graph; None when the graph does not hold it
    public: bool  # no part of its name starts with "_"
    test_code: bool
    test_role: str | None = None  # test, fixture, setup
    old_qualified_name: str | None = None  # renamed or moved: its name before
    old_path: str | None = None
    # the `content_hash` of its code before the change: imported coverage recorded against
    # that code still says which tests run it (None: added, or not parsed)
    old_hash: str | None = None


@dataclass(frozen=True)
class Affected:
    """Code that may break: it calls, imports, subclasses or uses a changed symbol, directly
    (distance 1) or through other affected code."""

    id: str
    qualified_name: str
    kind: str
    location: Location
    distance: int
    certain: bool  # every edge of the path is exact or inferred
    edge: str  # the last step: CALLS, IMPORTS, INHERITS, USES_TYPE (or "CALLS?" unresolved)
    resolution: str | None
    changed: str  # the changed symbol the path starts from
    path: tuple[str, ...]  # qualified names from the changed symbol to this one
    pagerank: float = 0.0


@dataclass(frozen=True)
class TestToRun:
    """A test that exercises the change (or is part of it)."""

    __test__ = False  # a record, not a pytest test class

    id: str
    qualified_name: str
    location: Location
    runner_id: str  # what to give the test runner: `tests/test_x.py::TestA::test_y`
    reaches: tuple[str, ...]  # the changed symbols it exercises
    distance: int  # 0: the test itself changed
    certain: bool
    via: str | None  # the fixture or set-up it reaches the change through
    changed: bool = False
    affinity: int = 0  # 2: named after a changed symbol, 1: its file after a changed module
    ran: bool = False  # ran the changed code under imported coverage recorded before it changed

    # why it is listed: "changed", "ran it (coverage)", "reaches it (certain, 2 steps)"
    reason: str = ""
    # it read what the changed code kept when it ran before this test (at import, or a memo
    # an earlier test filled): why, in words (`impact.kept`)
    kept: str | None = None
    # a static prediction for code whose imported coverage is fresh and says this test did
    # not run it: listed last, and not among the tests to run (`DiffImpact.to_run`)
    extra: bool = False


@dataclass(frozen=True)
class CoverageUse:
    """How imported coverage (`graphrag-code coverage import`) served a question."""

    commit: str | None  # the commit it was recorded at
    recorded_at: str | None  # when (ISO, UTC)
    tests: int  # tests it holds
    # (subject, "changed" | "new" | "outside" | "interface"): subjects predicted statically,
    # their coverage being stale (changed since it was recorded), missing (new since, or not
    # measured), not theirs alone (they also ran outside every test, at import or
    # collection) or blind to the change (their interface changed: `tests.INTERFACE`)
    static: tuple[tuple[str, str], ...] = ()

    def age(self, now: datetime | None = None) -> str:
        """How long ago it was recorded, in words (`3 days`, `5 hours`)."""
        if not self.recorded_at:
            return "of unknown age"
        seconds = ((now or datetime.now(tz=timezone.utc)) - datetime.fromisoformat(
            self.recorded_at
        )).total_seconds()  # fmt: skip
        for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
            if seconds >= size:
                count = int(seconds // size)
                return f"{count} {unit}{'s' if count != 1 else ''} old"
        return "less than a minute old"


@dataclass(frozen=True)
class RiskSummary:
    level: Literal["low", "medium", "high"]
    reasons: tuple[str, ...]
    changed_public: int
    signature_changes: int
    removed_public: int
    certain_callers: int  # affected code at distance 1 through certain edges
    untested: int


@dataclass(frozen=True)
class GraphSide:
    """Which state of the code the graph describes while the diff is read against it."""

    repo: str
    root: str | None
    head: str | None  # the commit checked out when it was indexed
    updated: bool  # brought up to date (incrementally) from the working tree just now
    files_parsed: int = 0
    note: str | None = None  # where the graph and the diff's new side differ


@dataclass(frozen=True)
class DiffImpact:
    """What a change touches, what may break, and which tests to run."""

    source: str  # what was compared: `main..HEAD`, the working tree, the index, a patch
    graph: GraphSide
    changes: list[ChangedSymbol]
    other_files: list[str]  # changed files no language plug-in reads
    affected: list[Affected]
    tests: list[TestToRun]
    untested: list[ChangedSymbol]  # changed code no test reaches
    risk: RiskSummary
    truncated: bool  # the blast radius hit its size cap
    depth: int = 2
    # the walk back from the changed code to the tests was cut (`impact.tests.reaching_tests`):
    # tests reached only through longer chains of name matches are not listed
    tests_truncated: bool = False
    warnings: list[str] = field(default_factory=list)
    coverage: CoverageUse | None = None  # None: no coverage imported

    @property
    def to_run(self) -> list[TestToRun]:
        """The tests to run: `tests` without the extras (what the coverage contradicts)."""
        return [test for test in self.tests if not test.extra]

    @property
    def extras(self) -> bool:
        """Whether `tests` lists extras after the tests to run."""
        return any(test.extra for test in self.tests)

    def callers_of(self, change: ChangedSymbol) -> list[Affected]:
        """The affected code one certain edge away from `change`."""
        return [
            a
            for a in self.affected
            if a.changed == change.qualified_name and a.distance == 1 and a.certain
        ]

    def failures(self, policy: FailPolicy) -> list[str]:
        """Why `policy` fails this change (empty: it passes)."""
        if policy == "high-risk":
            return list(self.risk.reasons) if self.risk.level == "high" else []
        found = []
        for change in self.untested:
            if not change.public or change.test_code:
                continue
            callers = self.callers_of(change)
            if policy == "untested" or callers:
                found.append(
                    f"{change.qualified_name} ({change.change}) has "
                    + (f"{len(callers)} certain caller(s) and " if callers else "")
                    + "no test"
                )
        return found


@dataclass(frozen=True)
class TestsFor:
    """The tests that exercise a symbol or the symbols of a file."""

    __test__ = False  # a record, not a pytest test class

    subject: str
    targets: int  # how many nodes the subject stands for (a file's symbols, a class's methods)
    tests: list[TestToRun]
    # the walk back to the tests was cut: tests reached only through longer chains of name
    # matches are not listed (`impact.tests.reaching_tests`)
    truncated: bool = False
    coverage: CoverageUse | None = None  # None: no coverage imported
    warnings: tuple[AnswerWarning, ...] = ()  # `CodeGraph` adds them


@dataclass(frozen=True)
class UntestedSymbol:
    id: str
    qualified_name: str
    kind: str
    location: Location
    callers: int
    pagerank: float


@dataclass(frozen=True)
class DeadSymbol:
    """Code nothing in the repository reaches, and why it looks unreachable."""

    id: str
    qualified_name: str
    kind: str
    location: Location
    confidence: float  # 0..1: how sure it is dead
    reasons: tuple[str, ...]
