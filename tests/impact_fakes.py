"""A graph reader for the offline tests of `exercising_tests` (`impact.tests`, `kept`,
`programs`, `singletons`, `import_failures`): each read it makes answers nothing unless a
test's tables say otherwise, so a new read of the graph needs one default here, not a stub
per test file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from graphrag_code.graph.records import (
    ImportedModule,
    KeptCode,
    ProcessTests,
    ProgramCall,
    RanInto,
    ReachBack,
    SymbolRef,
    TestEdge,
)
from graphrag_code.location import Location


class TableReader:
    """The reads `exercising_tests` makes: the tests that ran each node (`ran`), test nodes
    named `tests.test_m.<id>`, and nothing else."""

    def __init__(self, *, ran: Sequence[RanInto] = ()) -> None:
        self.ran = list(ran)

    def reach_back(
        self, ids: Sequence[str], *, resolutions: Sequence[str] | None = None, limit: int
    ) -> ReachBack:
        return ReachBack({}, frozenset(), False)

    def test_nodes(self, ids: Sequence[str]) -> dict[str, tuple[SymbolRef, str | None]]:
        return {
            i: (SymbolRef(i, f"tests.test_m.{i}", "Function", "r", Location("tests/test_m.py")),
                "tests.test_m")
            for i in ids
        }  # fmt: skip

    def tests_inside(self, ids: Sequence[str]) -> list[TestEdge]:
        return []

    def ran_into(self, ids: Sequence[str]) -> list[RanInto]:
        return [r for r in self.ran if r.id in ids]

    def kept_state_code(self, ids: Sequence[str], *, certain: Sequence[str]) -> list[KeptCode]:
        return []

    def shared_members(self, ids: Sequence[str]) -> list[tuple[str, str, str, str, str]]:
        return []

    def module_imports(self, ids: Sequence[str]) -> list[ImportedModule]:
        return []  # no import graph (`impact.import_failures`)

    def class_members(
        self, ids: Sequence[str]
    ) -> dict[str, tuple[str, list[tuple[str, str, str]]]]:
        return {}

    def process_tests(self, ids: Sequence[str], starters: Sequence[str]) -> list[ProcessTests]:
        return []  # no test starts a child process (`impact.programs`)

    def program_entries(
        self, repo: str, *, scripts: Sequence[str], markers: Sequence[str]
    ) -> list[ProgramCall]:
        return []

    def reached_from(
        self, ids: Sequence[str], entries: Sequence[str], *, resolutions: Sequence[str]
    ) -> dict[str, tuple[str, ...]]:
        return {}


def record_coverage(folder: Path, source: str, runs: Sequence[tuple[str, str]]) -> Path:
    """A real coverage.py data file: `source` as a module under `folder`, then each run's
    function (by name, called with 1 if it takes an argument) under its context, in order."""
    coverage = pytest.importorskip("coverage")
    module = folder / "recorded_mod.py"
    module.write_text(source)
    data_file = folder / ".coverage"
    cov = coverage.Coverage(data_file=str(data_file), include=[str(module)])
    cov.start()
    try:
        namespace: dict[str, object] = {}
        exec(compile(source, str(module), "exec"), namespace)
        for context, name in runs:
            cov.switch_context(context)
            function = namespace[name]
            assert callable(function)
            function(*([1] if function.__code__.co_argcount else []))
    finally:
        cov.stop()
        cov.save()
    return data_file
