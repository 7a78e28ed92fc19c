"""Accuracy against independent oracles on a real package (requests 2.32.3 from PyPI).

grimp (imports) and jedi (calls) analyse the package's sdist without any help from
graphrag_code, and mypy judges the call sites jedi cannot resolve; we compare our edges with
theirs. The full table over four packages is in
BENCHMARKS.md (`python -m benchmarks.accuracy.graph_accuracy`).
"""

from __future__ import annotations

import pytest

from benchmarks.accuracy.call_pairs import second_opinion_pairs
from benchmarks.accuracy.graph_accuracy import compare
from benchmarks.oracles import calls_jedi, calls_mypy, imports_grimp


@pytest.fixture(scope="module")
def requests_accuracy() -> dict[str, object]:
    imports = imports_grimp.build("requests", "2.32.3")
    calls = calls_jedi.build("requests", "2.32.3", jobs=2, use_cache=True)
    second = calls_mypy.build_oracle("requests", "2.32.3")
    return compare("requests==2.32.3", imports, calls, mypy_oracle=second)


def test_imports_match_grimp(requests_accuracy: dict[str, dict[str, float]]) -> None:
    imports = requests_accuracy["imports"]
    assert imports["oracle"] > 40  # the oracle found the package's imports
    assert imports["precision"] >= 0.99
    assert imports["recall"] >= 0.98


def test_certain_calls_match_jedi(requests_accuracy: dict[str, dict[str, float]]) -> None:
    calls = requests_accuracy["calls_certain"]
    assert calls["oracle"] > 150
    assert calls["precision"] >= 0.97
    assert calls["recall"] >= 0.90


def test_mypy_judges_the_sites_jedi_leaves_unresolved(
    requests_accuracy: dict[str, dict[str, float]],
) -> None:
    assert requests_accuracy["of_which_mypy_resolved"] > 0
    both = requests_accuracy["calls_certain_jedi_then_mypy"]
    assert both["oracle"] >= requests_accuracy["calls_certain"]["oracle"]
    assert both["precision"] >= 0.97


def test_mypy_speaks_only_where_jedi_is_silent() -> None:
    jedi = {
        "package": "pkg",
        "call_sites": [
            {"file": "pkg/a.py", "line": 10, "targets": [], "external": None},
            {"file": "pkg/a.py", "line": 11, "targets": ["pkg.b.f"]},
            {"file": "pkg/a.py", "line": 12, "targets": [], "external": "os.path.join"},
        ],
    }
    mypy = {
        "call_sites": [
            {"module": "pkg.a", "line": 10, "target": "pkg.b.Base.m"},  # jedi silent: counts
            {"module": "pkg.a", "line": 11, "target": "pkg.b.g"},  # jedi answered: ignored
            {"module": "pkg.a", "line": 12, "target": "pkg.b.h"},  # jedi answered: ignored
            {"module": "pkg.a", "line": 10, "target": "werkzeug.x"},  # not in the package
        ]
    }
    assert second_opinion_pairs(jedi, mypy) == {("pkg.a", "pkg.b.Base.m")}
    assert second_opinion_pairs(jedi, None) == set()
