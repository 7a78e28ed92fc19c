"""A parametrised test's cases, selected one by one: where only some of a test's cases ran
the changed code under coverage, the tests to run name those cases (pytest's item ids), not
the whole table; static predictions stay whole tests. Offline: the coverage mapping on
tables of lines, the selection on a reader that answers from tables."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from graphrag_code.graph import GraphReader
from graphrag_code.graph.records import RanInto
from graphrag_code.impact.coverage import (
    CoverageLines,
    Span,
    case_ids,
    covered_pairs,
    read_coverage,
)
from graphrag_code.impact.tests import exercising_tests
from tests.impact_fakes import record_coverage
from tests.test_coverage_kept import _Reader

T = "tests/test_m.py::t"  # the reader's test `t`, as the runner names it


def test_case_ids_are_the_cases_that_ran_it_and_every_later_one() -> None:
    items = {T: {f"{T}[a]", f"{T}[b]", f"{T}[c]"}, "tests/test_m.py::u": {"tests/test_m.py::u"}}
    started = {f"{T}[a]": 1, f"{T}[b]": 3, f"{T}[c]": 5, "tests/test_m.py::u": 7}
    assert case_ids({f"{T}[c]"}, items, started) == {f"{T}[c]"}
    # b ran it, c ran after b: c may read what it left (a cache b filled)
    assert case_ids({f"{T}[b]"}, items, started) == {f"{T}[b]", f"{T}[c]"}
    assert case_ids({f"{T}[a]"}, items, started) == {T}  # the first case: every case
    assert case_ids({"tests/test_m.py::u"}, items, started) == {"tests/test_m.py::u"}
    # where the run's order is not known, a test is run whole
    assert case_ids({f"{T}[c]"}, items, {}) == {T}


def test_coverage_keeps_the_cases_of_a_parametrised_test_that_ran_a_node() -> None:
    lines = CoverageLines(
        {
            "/r/pkg/m.py": {
                2: (f"{T}[1]|run",),  # f: one case of three
                6: (f"{T}[1]|run", f"{T}[2]|run", f"{T}[3]|setup"),  # g: every case
                7: ("tests/test_m.py::u|run",),  # g: a test with no parameters
            },
            # a case seen only in a file outside the graph is still a case of the test
            "/elsewhere/x.py": {1: (f"{T}[4]|run",)},
        },
        6,
        {f"{T}[3]|setup": 1, f"{T}[1]|run": 2, f"{T}[2]|run": 3, f"{T}[4]|run": 4},
    )
    tests = {T: "t", "tests/test_m.py::u": "u"}
    spans = {"pkg/m.py": [Span("f", 1, 3), Span("g", 5, 8)]}
    covered = covered_pairs(lines, {"/r/pkg/m.py": "pkg/m.py"}, spans, tests)
    assert covered.pairs == {("t", "f"), ("t", "g"), ("u", "g")}
    # in the run's order t's cases are 3, 1, 2, 4: f ran in 1, so 2 and 4 (later) may read
    # what it left; g in 3, the first: every case, so the whole test; u keeps no cases
    assert covered.cases == {("t", "f"): {f"{T}[1]", f"{T}[2]", f"{T}[4]"}}


def test_an_inherited_test_keeps_its_classes_and_the_parametrised_cases_of_one() -> None:
    a, b = "tests/test_m.py::TestA::test_m", "tests/test_m.py::TestB::test_m"
    lines = CoverageLines(
        {"/r/m.py": {2: (f"{a}[x]|run", f"{a}[y]|run", f"{b}[x]|run"), 9: (f"{b}[y]|run",)}},
        5,
        {f"{a}[x]|run": 1, f"{a}[y]|run": 2, f"{b}[y]|run": 3, f"{b}[x]|run": 4},
    )
    covered = covered_pairs(
        lines, {"/r/m.py": "m.py"}, {"m.py": [Span("f", 1, 3), Span("g", 8, 10)]},
        {a: "m", b: "m"}, {a, b},
    )  # fmt: skip
    assert covered.cases[("m", "f")] == {a, f"{b}[x]"}  # every case of TestA's, one of TestB's


def _found(reader: _Reader, *targets: str) -> list[tuple[str, str]]:
    found, _, _ = exercising_tests(cast(GraphReader, reader), {t: (t,) for t in targets})
    return [(t.runner_id, "extra" if t.extra else "ran" if t.ran else "static") for t in found]


def test_only_the_cases_that_ran_the_change_are_to_run() -> None:
    # humanize-like: one test, a table of cases; a change one case ran lists that case to
    # run, and the whole test (it reaches the code statically) only as an extra
    reader = _Reader(
        reaches={"f": ["t"]}, ran=[RanInto("f", ("t",), "h", "h", cases={"t": (f"{T}[2]",)})]
    )
    assert _found(reader, "f") == [(f"{T}[2]", "ran"), (T, "extra")]


def test_static_predictions_stay_whole_tests() -> None:
    # the coverage is stale (the node changed since it was recorded): the static prediction
    # is to run, as the whole test; which case ran the old code says nothing of the new
    reader = _Reader(
        reaches={"f": ["t"]}, ran=[RanInto("f", ("t",), "new", "old", cases={"t": (f"{T}[2]",)})]
    )
    assert _found(reader, "f") == [(T, "static")]


def test_a_case_folds_into_its_whole_test_when_that_is_to_run_too() -> None:
    # f ran in case 1 only, g in every case: running the whole test runs case 1 too
    reader = _Reader(
        ran=[
            RanInto("f", ("t",), "h", "h", cases={"t": (f"{T}[1]",)}),
            RanInto("g", ("t", "u"), "h", "h"),
        ]
    )
    found, _, _ = exercising_tests(cast(GraphReader, reader), {"f": ("f",), "g": ("g",)})
    assert [(t.runner_id, t.ran, t.reaches) for t in found] == [
        (T, True, ("g", "f")),
        ("tests/test_m.py::u", True, ("g",)),
    ]


def test_a_data_file_gives_the_order_its_contexts_ran_in(tmp_path: Path) -> None:
    cases = ("z", "a", "m")  # not the names' order
    source = "def f(x):\n    return x + 1\n"
    data_file = record_coverage(tmp_path, source, [(f"{T}[{case}]|run", "f") for case in cases])
    order = read_coverage(data_file).order
    ranks = [order[f"{T}[{case}]|run"] for case in cases]
    assert ranks == sorted(ranks)
