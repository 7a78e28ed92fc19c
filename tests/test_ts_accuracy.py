"""The TypeScript accuracy comparison (benchmarks/accuracy/ts_accuracy.py) on a code base whose
checker answers were written by hand in the oracle's format."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.accuracy.ts_accuracy import compare, markdown

FIXTURE = Path(__file__).parent / "fixtures" / "ts_accuracy"


def test_comparison_against_a_hand_written_oracle() -> None:
    imports = json.loads((FIXTURE / "expected.imports.json").read_text())
    calls = json.loads((FIXTURE / "expected.calls.json").read_text())
    result = compare(FIXTURE, imports, calls, show_errors=10)
    assert result["files"] == 3
    # two relative imports; the JSON module is left out (no node of ours), lodash is external
    assert result["imports"] == {
        "precision": 1.0, "recall": 1.0, "true_positive": 2, "ours": 2, "oracle": 2,
    }  # fmt: skip
    assert result["imports_json_targets_left_out"] == 1
    assert result["imports_external"]["true_positive"] == 1
    # nine callable targets; `runner.run()` needs make()'s inferred return type, which we do
    # not infer: the name tier finds it. `new Child(3)` is the class for the checker and the
    # inherited Square.constructor for us: counted as one target.
    certain = result["calls_certain"]
    assert (certain["true_positive"], certain["ours"], certain["oracle"]) == (8, 8, 9)
    assert result["calls_with_name_tier"]["recall"] == 1.0
    assert result["calls_name_tier_judged"]["precision"] == 1.0
    assert result["errors"]["calls_missing"] == []
    assert result["errors"]["calls_extra_judged"] == []
    assert result["oracle_targets_without_a_node"] == 0
    assert "ts-accuracy@0.0.0 | 3 | 1.000 | 1.000 | 1.000" in markdown([result])


def test_a_wrong_edge_costs_precision(tmp_path: Path) -> None:
    imports = json.loads((FIXTURE / "expected.imports.json").read_text())
    calls = json.loads((FIXTURE / "expected.calls.json").read_text())
    for site in calls["calls"]:
        if site["callee_text"] == "util.helper":  # the checker "says" another function
            site["target"] = {**site["target"], "name": "make", "line": 13}
    result = compare(FIXTURE, imports, calls)
    certain = result["calls_certain"]
    assert (certain["true_positive"], certain["ours"]) == (7, 8)
    assert certain["precision"] == 7 / 8
