"""Every tier's call sites judged by the checker, then by running code
(benchmarks/accuracy/ts_runtime_judge.py), and the counts pooled over packages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.accuracy import ts_runtime_all
from benchmarks.accuracy.ts_runtime_all import suite_counts
from benchmarks.accuracy.ts_runtime_judge import (
    TraceError,
    judge_sites,
    judge_tiers,
    pool,
    precisions,
    read_trace,
    went_elsewhere,
)
from benchmarks.oracles.ts_oracle import PinnedCodebase
from graphrag_code.model import Resolution

CHECKER = {("a.js", 1, "f")}
JUDGED = {("a.js", 1), ("a.js", 2), ("a.js", 7)}  # lines where the checker answered
RAN = {("a.js", 2, "g"), ("a.js", 3, "g"), ("a.js", 4, "f"), ("b.js", 5, "f")}
ELSEWHERE = {("a.js", 3, "f")}  # a call by f's name at line 3 reached g (`went_elsewhere`)


def test_checker_first_then_running_code_then_contradicted_or_not_judged() -> None:
    sites = {
        ("a.js", 1, "f"),  # the checker confirms
        ("a.js", 2, "g"),  # the checker answered otherwise, but the line ran g: run overrides
        ("a.js", 7, "f"),  # the checker answered otherwise, the line never ran: refuted
        ("a.js", 4, "f"),  # unanswered, the line ran f
        ("a.js", 3, "f"),  # unanswered, its call of f ran and reached g, never f
        ("a.js", 3, "h"),  # ... the line ran, but no call of h went elsewhere: not judged
        ("a.js", 9, "f"),  # never ran
    }
    counts = judge_sites(sites, CHECKER, JUDGED, set(), RAN, ELSEWHERE)
    assert counts == {
        "sites": 7,
        "checker_confirmed": 1,
        "checker_refuted": 1,
        "run_confirmed": 2,
        "run_overrode_checker": 1,
        "contradicted": 1,
        "not_judged": 2,
        "judged_before": 3,
        "right_before": 1,
        "checker_confirmed_ran": 0,
        "checker_confirmed_contradicted": 0,
    }
    figures = precisions(counts)
    assert figures["precision_before"] == round(1 / 7, 4)
    assert figures["judged_precision_before"] == round(1 / 3, 4)
    assert figures["precision_after"] == round(3 / 7, 4)
    assert (figures["judged_after"], figures["judged_precision_after"]) == (5, 0.6)


def test_where_both_judges_answer_their_agreement_is_counted() -> None:
    checker = {("a.js", 4, "f"), ("a.js", 3, "f")}
    sites = {("a.js", 4, "f"), ("a.js", 3, "f")}
    counts = judge_sites(sites, checker, JUDGED, set(), RAN, ELSEWHERE | {("a.js", 3, "f")})
    assert (counts["checker_confirmed_ran"], counts["checker_confirmed_contradicted"]) == (1, 1)
    assert counts["contradicted"] == 0  # the checker's answer comes first


def test_only_a_call_by_the_targets_name_that_reached_another_function_contradicts() -> None:
    runs = {
        ("a.js", 1, "run", "x.run"),  # `cond ? x.run() : y.stop()`: only run ran
        ("a.js", 2, "send", "Other.send"),  # `this.send()` reached another send
        ("a.js", 3, "send", "Mine.send"),  # ... and here ours
        ("a.js", 3, "send", "Other.send"),
        ("a.js", 4, "header", "Other.send"),  # an alias: `res.set = res.header = …`
        ("b.js", 9, "stop", "y.stop"),  # stop and Mine.send ran from elsewhere
        ("b.js", 9, "send", "Mine.send"),
    }
    aliases = {("Mine.send", "send"), ("Mine.send", "header"), ("y.stop", "stop")}

    def called_as(node: str, name: str) -> bool:
        return (node, name) in aliases

    sites = {
        ("a.js", 1, "y.stop"),
        ("a.js", 2, "Mine.send"),
        ("a.js", 3, "Mine.send"),
        ("a.js", 4, "Mine.send"),
        ("a.js", 2, "Never.send"),  # never ran anywhere
    }
    assert went_elsewhere(sites, runs, called_as) == {
        ("a.js", 2, "Mine.send"),
        ("a.js", 4, "Mine.send"),
    }


def test_a_site_the_checker_leaves_unjudged_is_not_refuted() -> None:
    # the checker answered another call at line 7, not this one (ts_accuracy's `unjudged`)
    site = {("a.js", 7, "f")}
    counts = judge_sites(site, CHECKER, JUDGED, unjudged=site, ran=set(), elsewhere=set())
    assert (counts["checker_refuted"], counts["not_judged"], counts["judged_before"]) == (0, 1, 0)


def test_tiers_are_judged_apart_and_certain_is_exact_with_inferred() -> None:
    tiers = {
        Resolution.EXACT: {("a.js", 1, "f")},
        Resolution.INFERRED: {("a.js", 4, "f")},
        Resolution.NAME: {("a.js", 3, "f")},
    }
    figures = judge_tiers(tiers, CHECKER, JUDGED, set(), RAN, ELSEWHERE)
    assert figures["certain"]["sites"] == 2
    assert figures["certain"]["precision_after"] == 1.0
    assert figures["name"]["contradicted"] == 1
    assert figures["dispatch"]["judged_precision_after"] is None


def test_pooling_sums_the_counts_of_each_tier() -> None:
    one = judge_tiers({Resolution.NAME: {("a.js", 4, "f")}}, set(), set(), set(), RAN, ELSEWHERE)
    two = judge_tiers({Resolution.NAME: {("a.js", 3, "f")}}, set(), set(), set(), RAN, ELSEWHERE)
    pooled = pool([one, two])["name"]
    assert (pooled["sites"], pooled["run_confirmed"], pooled["contradicted"]) == (2, 1, 1)
    assert pooled["judged_precision_after"] == 0.5


def test_a_malformed_trace_is_a_clear_error(tmp_path: Path) -> None:
    trace = tmp_path / "trace.tsv"
    trace.write_text("a.js\t3\tb.js\tf@1\tf\na.js\tthree\tb.js\tf@1\tf\n")
    with pytest.raises(TraceError, match=r"trace\.tsv:2: not a trace row"):
        read_trace(trace)


def test_suite_summaries_of_mocha_tap_and_jest_give_the_test_counts() -> None:
    assert suite_counts("  1288 passing (7s)\n  3 failing\n") == {"passed": 1288, "failed": 3}
    assert suite_counts("# pass  120\n# fail  0\n# skip 2\n") == {
        "passed": 120,
        "failed": 0,
        "skipped": 2,
    }
    tap = "ok 1 - test/a.test.js # time=1ms\n    not ok 2 - inner\nnot ok 2 - test/b.test.js\n"
    assert suite_counts(tap) == {"files_passed": 1, "files_failed": 1}
    jest = "Tests:       4 skipped, 364 passed, 368 total\n"
    assert suite_counts(jest) == {"passed": 364, "skipped": 4}


def test_preparing_a_suite_keeps_only_its_dev_dependencies_and_no_scripts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "pkg-1.0.0"
    scratch.mkdir()
    manifest = {
        "name": "pkg",
        "scripts": {"postinstall": "node build.js"},
        "dependencies": {"dep": "1"},
        "devDependencies": {"mocha": "10", "eslint": "9", "nyc": "15"},
    }
    (scratch / "package.json").write_text(json.dumps(manifest))
    installs: list[list[str]] = []

    def fake_run(command: list[str], **_: object) -> None:
        installs.append(command)

    monkeypatch.setattr(ts_runtime_all, "RUNTIME_DIR", tmp_path)
    monkeypatch.setattr(ts_runtime_all.subprocess, "run", fake_run)
    entry = PinnedCodebase("pkg", "1.0.0", "sha512-x", style="", include=("lib",))
    ts_runtime_all.prepare(
        entry, ts_runtime_all.Suite("github:o/pkg@1.0.0", "mocha", dev=("mocha",))
    )
    trimmed = json.loads((scratch / "package.json").read_text())
    assert trimmed["devDependencies"] == {"mocha": "10"}
    assert "scripts" not in trimmed
    assert trimmed["dependencies"] == {"dep": "1"}
    assert json.loads((scratch / "package.json.orig").read_text()) == manifest
    assert [command[:3] for command in installs] == [["npm", "install", "--ignore-scripts"]]
