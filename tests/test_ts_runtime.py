"""Certain call sites judged by the checker, then by a runtime trace
(benchmarks/accuracy/ts_runtime.py)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.accuracy.ts_runtime import judge, read_trace


def test_the_trace_confirms_contradicts_or_did_not_run_a_site(tmp_path: Path) -> None:
    trace = tmp_path / "trace.tsv"
    trace.write_text("a.js\t1\tf\na.js\t2\tg\na.js\t3\tg\n")
    ran = read_trace(trace)
    certain = {("a.js", 1, "f"), ("a.js", 2, "g"), ("a.js", 3, "f"), ("a.js", 9, "f")}
    figures = judge(certain, checker={("a.js", 1, "f")}, ran=ran)
    # line 2 ran g as we say; line 3 ran g, never f; line 9 never ran
    assert (figures["checker_confirmed"], figures["run_confirmed"]) == (1, 1)
    assert figures["contradicted"] == [("a.js", 3, "f")]
    assert figures["not_run"] == 1
    assert figures["precision_checker_then_run"] == round(2 / 3, 4)
