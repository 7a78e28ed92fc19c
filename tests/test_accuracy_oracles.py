"""Accuracy against independent oracles on a real package (requests 2.32.3 from PyPI).

grimp (imports) and jedi (calls) analyse the package's sdist without any help from
graphrag_code; we compare our edges with theirs. The full table over four packages is in
BENCHMARKS.md (`python -m benchmarks.graph_accuracy`).
"""

from __future__ import annotations

import pytest

from benchmarks.graph_accuracy import compare
from benchmarks.oracles import calls_jedi, imports_grimp


@pytest.fixture(scope="module")
def requests_accuracy() -> dict[str, object]:
    imports = imports_grimp.build("requests", "2.32.3")
    calls = calls_jedi.build("requests", "2.32.3", jobs=2, use_cache=True)
    return compare("requests==2.32.3", imports, calls)


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
