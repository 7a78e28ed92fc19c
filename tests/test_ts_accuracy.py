"""The TypeScript accuracy comparison (benchmarks/accuracy/ts_accuracy.py) on a code base whose
checker answers were written by hand in the oracle's format."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.accuracy.ts_accuracy import (
    checker_calls,
    compare,
    markdown,
    set_of,
    tier_figures,
    tier_markdown,
)
from graphrag_code.model import Resolution

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
    # nine callable targets; `runner.run()` needs make()'s return type, which its `return new
    # Runner()` gives. `new Child(3)` is the class for the checker and the inherited
    # Square.constructor for us: counted as one target.
    certain = result["calls_certain"]
    assert (certain["true_positive"], certain["ours"], certain["oracle"]) == (9, 9, 9)
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
    assert (certain["true_positive"], certain["ours"]) == (8, 9)
    assert certain["precision"] == round(8 / 9, 4)


def test_tier_figures_count_edges_and_judge_only_answered_sites() -> None:
    oracle = {("a.ts", 1, "f"), ("a.ts", 2, "g")}
    judged = {("a.ts", 1), ("a.ts", 2), ("a.ts", 3)}
    tiers = {
        Resolution.EXACT: {("a.ts", 1, "f")},
        # right at line 2, wrong at line 3 (answered), unjudged at line 9 (left unresolved)
        Resolution.NAME: {("a.ts", 2, "g"), ("a.ts", 3, "h"), ("a.ts", 9, "h")},
    }
    edges = {Resolution.EXACT: 1, Resolution.NAME: 2}
    figures = tier_figures(tiers, edges, oracle, judged)
    name = figures["tiers"]["name"]
    assert (name["edges"], name["sites"], name["judged_sites"]) == (2, 3, 2)
    assert name["precision"] == round(1 / 3, 4)
    assert name["judged_precision"] == 0.5
    assert figures["tiers"]["partial"]["judged_precision"] is None
    assert (figures["certain_edges"], figures["possible_edges"]) == (1, 2)
    assert figures["possible_per_certain"] == 2.0


def test_every_tier_is_reported_per_code_base() -> None:
    imports = json.loads((FIXTURE / "expected.imports.json").read_text())
    calls = json.loads((FIXTURE / "expected.calls.json").read_text())
    result = compare(FIXTURE, imports, calls)
    tiers = result["calls_tiers"]
    assert set(tiers["tiers"]) == {tier.value for tier in Resolution}
    exact, inferred = tiers["tiers"]["exact"], tiers["tiers"]["inferred"]
    assert exact["sites"] + inferred["sites"] == result["calls_certain"]["ours"]
    assert tiers["certain_edges"] == exact["edges"] + inferred["edges"] > 0
    assert tiers["tiers"]["inferred"]["judged_precision"] == 1.0
    assert tiers["tiers"]["name"]["judged_precision"] is None  # no site left to the name tier
    assert set_of("fastify-4.28.1") == "heldout"
    assert set_of("mobx-6.13.7") == "tuning"
    row = tier_markdown([{"set": set_of("ts-accuracy-0.0.0"), **result}]).splitlines()[2]
    assert row.startswith("| – | ts-accuracy@0.0.0 | 1.000 | 1.000 |")


def test_an_edge_is_unjudged_where_its_own_call_was_left_unresolved() -> None:
    imports = json.loads((FIXTURE / "expected.imports.json").read_text())
    calls = json.loads((FIXTURE / "expected.calls.json").read_text())
    site = next(s for s in calls["calls"] if s["callee_text"] == "util.helper")
    # the checker leaves util.helper unresolved but answers another call on its line
    site.update(target=None, unresolved_reason="any")
    other = {**site, "callee_text": "String", "column": 99, "external": "lib.es5.d.ts"}
    calls["calls"].append(other)
    result = compare(FIXTURE, imports, calls, show_errors=10)
    assert result["calls_certain"]["ours"] - result["calls_certain"]["true_positive"] == 1
    assert result["calls_certain_judged"]["precision"] == 1.0
    assert result["errors"]["calls_extra_judged"] == []
    # answered under another name only: the edge is judged, and wrong
    calls["calls"].remove(site)
    judged = compare(FIXTURE, imports, calls)["calls_certain_judged"]
    assert judged["ours"] - judged["true_positive"] == 1


def test_a_call_of_an_alias_left_unresolved_leaves_its_edge_unjudged(tmp_path: Path) -> None:
    # express: `res.set = res.header = function header …; this.set('Content-Type',
    # setCharset(type))`: the checker leaves this.set unresolved and answers setCharset
    source = """var res = Object.create(null);
res.set =
res.header = function header(field) { return field };
function setCharset(t) { return t }
res.send = function send(body) { this.set('Content-Type', setCharset(body)) };
"""
    (tmp_path / "r.js").write_text(source)
    site = {"file": "r.js", "line": 5, "column": 36, "target": None, "external": None}
    answered = {"file": "r.js", "line": 4, "name": "setCharset", "kind": "function"}
    calls = {
        "package": "alias", "version": "0", "files": ["r.js"],
        "calls": [
            {**site, "callee_text": "this.set", "unresolved_reason": "no-symbol"},
            {**site, "callee_text": "setCharset", "target": answered},
        ],
    }  # fmt: skip
    result = compare(tmp_path, {"files": ["r.js"], "imports": []}, calls)
    assert result["calls_certain"]["ours"] == 2  # this.set -> header, setCharset
    assert result["calls_certain_judged"] == {
        "precision": 1.0, "recall": 1.0, "true_positive": 1, "ours": 1, "oracle": 1,
    }  # fmt: skip


def test_an_export_named_by_its_define_property_call_is_no_answer() -> None:
    """tsc's `Object.defineProperty(exports, "CLIError", { get: … })`: the checker names the
    call, not the class; such a site is left unanswered, as an `any` is."""
    target = {"kind": "other", "declaration_kind": "CallExpression", "file": "lib/i.js"}
    site = {"file": "lib/a.js", "line": 3, "callee_text": "errors_1.CLIError", "target": target}
    calls, judged, unanswered = checker_calls({"calls": [site]}, None, {"lib/a.js"})  # type: ignore[arg-type]
    assert (calls, judged) == (set(), set())
    assert unanswered == {("lib/a.js", 3, "CLIError")}
