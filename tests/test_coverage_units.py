"""Imported coverage, offline: contexts -> tests, lines -> the innermost symbol, files -> the
graph's paths, the staleness rule, and a real coverage.py data file read back."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import cast

import pytest

from graphrag_code.conventions import ClassTree, seeds_of_tests
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph import GraphReader
from graphrag_code.graph.records import RanInto, SymbolRef
from graphrag_code.impact import CoverageUse, coverage_line
from graphrag_code.impact.coverage import (
    CoverageLines,
    Span,
    body_line,
    covered_pairs,
    freshness,
    innermost_lines,
    map_paths,
    read_coverage,
    runner_of_context,
)
from graphrag_code.impact.tests import listing_reason, ran_tests, run_order
from graphrag_code.languages.python.conventions import PythonConventions
from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.location import Location

from .impact_fakes import TableReader, record_coverage


@pytest.mark.parametrize(
    ("context", "expected"),
    [
        ("tests/test_x.py::TestA::test_y|run", "tests/test_x.py::TestA::test_y"),
        ("tests/test_x.py::test_y[1-2]|setup", "tests/test_x.py::test_y"),
        ("tests/test_x.py::test_y[a|b]|teardown", "tests/test_x.py::test_y"),
        ("tests.test_x.TestA.test_y", "tests.test_x.TestA.test_y"),  # dynamic_context
        ("", None),
        ("|run", None),
    ],
)
def test_contexts_name_tests_without_phase_or_parameters(context: str, expected: str) -> None:
    assert runner_of_context(context) == expected


def test_a_line_belongs_to_the_innermost_span() -> None:
    spans = [
        Span("Cls", 1, 20),
        Span("Cls.method", 3, 10),
        Span("Cls.method.inner", 5, 7),
        Span("func", 22, 25),
    ]
    owner = innermost_lines(spans, [2, 4, 6, 8, 21, 23, 30])
    assert owner == {2: "Cls", 4: "Cls.method", 6: "Cls.method.inner", 8: "Cls.method", 23: "func"}


def test_measured_paths_map_under_the_root_else_by_suffix(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    known = ["pkg/mod.py", "tests/test_mod.py", "other/mod.py"]
    measured = [
        str(root / "pkg" / "mod.py"),
        "/ci/runner/checkout/tests/test_mod.py",  # recorded elsewhere: by its suffix
        "/usr/lib/python3/site-packages/six.py",  # not the repository's
    ]
    assert map_paths(measured, str(root), known) == {
        measured[0]: "pkg/mod.py",
        measured[1]: "tests/test_mod.py",
    }


def test_covered_lines_give_test_to_code_pairs() -> None:
    lines = CoverageLines(
        files={
            "/r/pkg/mod.py": {
                1: ("",),  # module level, at import: no test
                3: ("tests/test_mod.py::test_a|run", "tests/test_mod.py::test_b[1]|run"),
                8: ("tests/test_mod.py::test_b[2]|run",),
            },
            "/r/tests/test_mod.py": {4: ("tests/test_mod.py::test_a|run",)},
            "/elsewhere/x.py": {1: ("tests/test_mod.py::test_a|run",)},
        },
        contexts=4,
    )
    paths = {"/r/pkg/mod.py": "pkg/mod.py", "/r/tests/test_mod.py": "tests/test_mod.py"}
    spans = {
        "pkg/mod.py": [Span("f", 2, 5), Span("g", 7, 9), Span("h", 11, 12)],
        "tests/test_mod.py": [Span("test_a", 3, 5)],
    }
    tests = {"tests/test_mod.py::test_a": "test_a", "tests/test_mod.py::test_b": "test_b"}
    covered = covered_pairs(lines, paths, spans, tests)
    # a test running its own lines is no edge; h ran under no test but was measured
    assert covered.pairs == {("test_a", "f"), ("test_b", "f"), ("test_b", "g")}
    assert covered.unknown == set()
    assert covered.measured == {"f", "g", "h", "test_a"}
    assert covered.outside == set()  # line 1 is module level: in no span


def test_contexts_of_no_graph_test_are_reported() -> None:
    lines = CoverageLines({"/r/m.py": {2: ("tests/test_gone.py::test_x|run",)}}, 2)
    covered = covered_pairs(lines, {"/r/m.py": "m.py"}, {"m.py": [Span("f", 1, 3)]}, {})
    assert covered.pairs == set()
    assert covered.unknown == {"tests/test_gone.py::test_x"}


def test_code_whose_body_ran_outside_every_test_is_marked() -> None:
    lines = CoverageLines(
        {"/r/m.py": {1: ("",), 2: ("",), 5: ("",), 6: ("tests/t.py::test_x|run",)}}, 2
    )
    spans = {
        "m.py": [
            Span("called_at_import", 1, 3, body=2),  # its body line 2 ran under no test
            Span("defined_at_import", 5, 7, body=6),  # only its `def` line did
            Span("Cls", 9, 12),  # a class body runs at import: never outside
        ]
    }
    covered = covered_pairs(lines, {"/r/m.py": "m.py"}, spans, {"tests/t.py::test_x": "x"})
    assert covered.outside == {"called_at_import"}
    assert covered.pairs == {("x", "defined_at_import")}


@pytest.mark.parametrize(
    ("code", "body"),
    [
        ("def f(a):\n    return a\n", 11),
        ("@cache\ndef f(a,\n      b=1):  # why\n    return a\n", 13),
        ("async def f(\n    a: int,\n) -> dict[str, int]:\n    ...\n", 13),
        ("def f(): return 1\n", 11),  # one line, run when defined: never outside
    ],
)
def test_a_functions_body_starts_after_its_header(code: str, body: int) -> None:
    assert body_line(10, code) == body


def test_only_code_unchanged_since_the_coverage_keeps_its_tests() -> None:
    assert freshness("abc", "abc") == "fresh"
    assert freshness("abc", "abd") == "changed"
    assert freshness(None, "abd") == "new"
    assert freshness("abc", "abc", outside=True) == "outside"  # every test may depend on it
    assert freshness("abc", "abd", outside=True) == "changed"


class _RanReader(TableReader):
    """What `ran_tests` reads: the tests that ran each node, and the test nodes."""

    def __init__(self, ran: list[RanInto]) -> None:
        super().__init__(ran=ran)

    def test_nodes(self, ids: Sequence[str]) -> dict[str, tuple[SymbolRef, str | None]]:
        return {
            i: (SymbolRef(i, i, "Function", "r", Location("tests/test_m.py")), "tests.test_m")
            for i in ids
        }


def test_code_that_also_ran_outside_every_test_keeps_the_tests_that_ran_it() -> None:
    # marshmallow's module `__getattr__` runs at collection too, and no call edge reaches it:
    # a mutant of it failed the one test that ran it, which the static prediction missed
    reader = cast(GraphReader, _RanReader([
        RanInto("getattr", ("t_version",), "h1", "h1", outside=True),
        RanInto("edited", ("t_edit",), "h3", "h2"),
        RanInto("plain", ("t_plain",), "h4", "h4"),
    ]))  # fmt: skip
    edges, stale = ran_tests(reader, ["getattr", "edited", "plain"], {})
    assert sorted((e.target, e.test.id) for e in edges) == [
        ("getattr", "t_version"), ("plain", "t_plain"),
    ]  # fmt: skip
    assert stale == {"getattr": "outside", "edited": "changed"}  # both predicted statically too


def test_tests_that_ran_the_change_come_before_every_prediction() -> None:
    ran_far = run_order(
        changed=False, affinity=0, certain=True, distance=3, reaches=1, ran=True
    )  # fmt: skip
    named_certain_near = run_order(changed=False, affinity=2, certain=True, distance=1, reaches=2)
    edited = run_order(changed=True, affinity=0, certain=False, distance=0, reaches=0)
    assert sorted([named_certain_near, ran_far, edited]) == [edited, ran_far, named_certain_near]
    assert listing_reason(changed=False, ran=True, certain=True, distance=1) == "ran it (coverage)"
    assert listing_reason(changed=False, ran=False, certain=False, distance=2) == (
        "reaches it (possible, 2 steps)"
    )


def test_markdown_says_how_old_the_coverage_is_and_what_it_no_longer_covers() -> None:
    recorded = (datetime.now(tz=timezone.utc) - timedelta(days=3, hours=1)).isoformat()
    use = CoverageUse("0123456789abcdef", recorded, 12, (("pkg.mod.f", "changed"),))
    line = coverage_line(use, 4)
    assert "`0123456789ab`, 3 days old: 4 test(s) ran the changed code" in line
    assert "`pkg.mod.f` (changed)" in line
    assert "no coverage imported" in coverage_line(None, 0)


def test_reads_a_real_data_file_with_per_test_contexts(tmp_path: Path) -> None:
    source = "def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n"
    data_file = record_coverage(tmp_path, source, [("tests/test_m.py::test_f|run", "f")])
    by_line = read_coverage(data_file).files[str(tmp_path / "recorded_mod.py")]
    assert by_line[2] == ("tests/test_m.py::test_f|run",)
    assert 6 not in by_line  # g never ran


def test_unreadable_or_context_free_data_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="no coverage data file"):
        read_coverage(tmp_path / "missing")
    coverage = pytest.importorskip("coverage")
    module = tmp_path / "plain_mod.py"
    module.write_text("X = 1\n")
    data_file = tmp_path / ".coverage"
    cov = coverage.Coverage(data_file=str(data_file), include=[str(module)])
    cov.start()
    exec(compile(module.read_text(), str(module), "exec"), {})
    cov.stop()
    cov.save()
    with pytest.raises(InvalidArgumentError, match="per-test contexts"):
        read_coverage(data_file)


def test_functions_given_through_parametrize_are_run_by_the_test() -> None:
    source = textwrap.dedent(
        """\
        import pytest
        import attr.validators as v
        from attr.validators import lt, le as LE


        def local():
            pass


        @pytest.mark.parametrize("fn, name", [(lt, "lt"), (LE, "le"), (v.gt, "gt"), (local, "x")])
        def test_bounds(fn, name):
            pass


        @pytest.mark.parametrize("fn", [pytest.param(lt, id="lt")])
        class TestMarked:
            def test_inner(self, fn):
                pass
        """
    )
    parsed = PythonParser().parse(
        path="tests/test_v.py", module="tests.test_v", is_package=False,
        source=source.encode(), sha256="",
    )  # fmt: skip
    conventions = PythonConventions()
    roles = conventions.roles(parsed, conventions.configure({}), ClassTree({}, {}))
    values = {t.qualified_name.rsplit(".", 1)[1]: t.values for t in roles.tests}
    assert values["test_bounds"] == (
        "attr.validators.lt", "attr.validators.le", "attr.validators.gt", "tests.test_v.local",
    )  # fmt: skip
    # a class's mark counts for its tests; `pytest.param` names no binding of the file
    assert values["test_inner"] == ("attr.validators.lt",)
    seeds = seeds_of_tests({parsed.path: roles})[(parsed.path, "tests.test_v.test_bounds")]
    assert ("attr.validators.lt", "parameter lt") in {(s.qualified_name, s.via) for s in seeds}
