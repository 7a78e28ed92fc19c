"""Tests only a coverage run names (`impact.unindexed`): which contexts become test nodes."""

from __future__ import annotations

from graphrag_code.impact.coverage import CoverageLines, Span, covered_pairs
from graphrag_code.impact.unindexed import UnindexedTest, unindexed_tests


def test_pytest_ids_the_graph_does_not_know_become_tests_of_their_own() -> None:
    found = unindexed_tests(
        "r", ["pkg/tests/tests.md::tests.md", "tests.test_x.test_y", "pkg/tests/tests.md::tests.md"]
    )
    # a qualified name (coverage's `test_function` context) names no file to run
    assert found == [
        UnindexedTest(
            "r:coverage:pkg/tests/tests.md::tests.md",
            "pkg/tests/tests.md::tests.md",
            "pkg/tests/tests.md",
            "tests.md",
        )
    ]
    assert found[0].row()["runner"] == "pkg/tests/tests.md::tests.md"
    assert unindexed_tests("r", ["::x", "a.md::", ""]) == []


def test_their_lines_map_once_they_are_named() -> None:
    doc = "pkg/tests/tests.md::tests.md"
    lines = CoverageLines({"/r/pkg/m.py": {3: (f"{doc}|run", "tests/t.py::test_a|run")}}, 3)
    spans = {"pkg/m.py": [Span("r:pkg.m.f", 1, 4, 2)]}
    tests = {"tests/t.py::test_a": "r:tests.t.test_a"}
    first = covered_pairs(lines, {"/r/pkg/m.py": "pkg/m.py"}, spans, tests)
    assert first.unknown == {doc}
    (test,) = unindexed_tests("r", first.unknown)
    again = covered_pairs(lines, {"/r/pkg/m.py": "pkg/m.py"}, spans, {**tests, doc: test.id})
    assert again.pairs == {("r:tests.t.test_a", "r:pkg.m.f"), (test.id, "r:pkg.m.f")}
    assert not again.unknown
