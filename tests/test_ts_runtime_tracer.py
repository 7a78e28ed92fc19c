"""The JS call tracer (benchmarks/oracles/ts/runtime_trace.js) on a tiny fixture run under node:
each call into an instrumented function is recorded at its caller's call line, and each callee
is named as ts_accuracy names our nodes, so our call sites of the fixture are all confirmed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.accuracy.ts_accuracy import Nodes, our_calls
from benchmarks.accuracy.ts_runtime_judge import (
    TraceRow,
    judge_sites,
    named_runs,
    ran_calls,
    read_trace,
)
from benchmarks.oracles import ts_oracle
from graphrag_code.ingest.offline import link_repository

FIXTURE = Path(__file__).parent / "fixtures" / "ts_runtime"
TRACER = Path(ts_oracle.ORACLE_SOURCE_DIR) / "runtime_trace.js"
SHAPES = "lib/shapes.js"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="the tracer runs under node and parses with the oracle's typescript (npm)",
)


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[TraceRow], Path]:
    """The fixture's run.js run under the tracer, and the finished trace's rows."""
    typescript = ts_oracle.ensure_node_deps() / "typescript"  # its node_modules
    raw = tmp_path_factory.mktemp("raw")
    env = {
        **os.environ,
        "GTRACE_ROOT": str(FIXTURE),
        "GTRACE_INCLUDE": "lib",
        "GTRACE_OUT": str(raw),
        "GTRACE_TYPESCRIPT": str(typescript),
        "NODE_OPTIONS": "",
    }
    run = ["node", "--require", str(TRACER), "run.js"]
    subprocess.run(run, cwd=FIXTURE, env=env, check=True, timeout=60)
    out = raw / "trace.tsv"
    finish = ["node", str(TRACER), "finish", str(FIXTURE), str(raw), str(out)]
    subprocess.run(finish, env=env, check=True, capture_output=True, timeout=60)
    return read_trace(out), raw


def _calls(rows: list[TraceRow]) -> set[tuple[str, int, str]]:
    return {(file, line, names) for file, line, callee, names, _ in rows if callee == SHAPES}


def _names(rows: list[TraceRow]) -> dict[tuple[int, str], str]:
    return {(line, names): name for file, line, _, names, name in rows if file == SHAPES}


def test_each_call_is_recorded_at_its_call_line_with_its_callee(
    traced: tuple[list[TraceRow], Path],
) -> None:
    calls = _calls(traced[0])
    assert (SHAPES, 31, "constructor@14") in calls  # new Square(3)
    assert (SHAPES, 15, "constructor@3") in calls  # super('square') in a constructor
    assert (SHAPES, 27, "label@6") in calls  # a getter, read
    assert (SHAPES, 25, "twice@25") not in calls  # its own line holds no call of it
    assert (SHAPES, 35, "twice@25") in calls  # a function bound to an object's key
    assert (SHAPES, 35, "wrap@24") in calls  # an arrow's expression body
    assert ("run.js", 1, "main@30") in calls  # a caller outside the instrumented folder


def test_each_call_carries_the_name_it_was_called_by(
    traced: tuple[list[TraceRow], Path],
) -> None:
    names = _names(traced[0])
    assert names[(33, "area@18")] == "area"  # square.area()
    assert names[(15, "constructor@3")] == "super"
    assert names[(31, "constructor@14")] == "Square"  # new Square(3)
    assert names[(27, "label@6")] == ""  # a getter read is no call
    # in a one-line function, after the text inserted at its body's start: columns moved back
    assert names[(25, "double@23")] == "double"


def test_an_es_module_is_traced_through_the_load_hook(
    traced: tuple[list[TraceRow], Path],
) -> None:
    clock = "lib/clock.mjs"
    calls = {(f, line, names) for f, line, callee, names, _ in traced[0] if callee == clock}
    # `tick(\n  tick(n))`: the outer call starts on line 4, the inner one on line 5
    assert calls == {(clock, 4, "tick@1"), (clock, 5, "tick@1"), ("run.js", 2, "twice@4")}


def test_a_call_over_two_lines_is_recorded_at_the_line_it_starts_on(
    traced: tuple[list[TraceRow], Path],
) -> None:
    calls = _calls(traced[0])
    assert (SHAPES, 33, "area@18") in calls  # `square\n    .area()`
    assert (SHAPES, 34, "area@18") not in calls


def test_an_implicit_constructor_is_passed_over_to_the_new_that_ran_it(
    traced: tuple[list[TraceRow], Path],
) -> None:
    calls = _calls(traced[0])
    assert (SHAPES, 32, "constructor@3") in calls  # new Plain('plain'), Plain has none
    assert (SHAPES, 22, "constructor@3") not in calls  # `class Plain extends Shape {}`


def test_a_callback_run_by_the_runtime_has_no_caller_line(
    traced: tuple[list[TraceRow], Path],
) -> None:
    # Promise.resolve(2).then(double): double runs from the microtask queue
    doubles = {line for _, line, names in _calls(traced[0]) if names == "double@23"}
    assert doubles == {25, 28}


def test_instrumenting_keeps_every_line_and_the_code_before_each_insertion(
    traced: tuple[list[TraceRow], Path],
) -> None:
    (instrumented,) = (traced[1] / "instrumented").glob("*.js")
    ours = instrumented.read_text().splitlines()
    source = (FIXTURE / SHAPES).read_text().splitlines()
    assert len(ours) == len(source)
    assert ours[0].startswith("'use strict';")  # the directive stays first
    assert ours[2] == '  constructor(name) {__gtrace("lib/shapes.js\\tconstructor@3");'
    assert ours[22] == ('const double = (x) => (__gtrace("lib/shapes.js\\tdouble@23"), x * 2);')


def test_every_call_site_of_ours_in_the_fixture_is_confirmed_by_the_run(
    traced: tuple[list[TraceRow], Path],
) -> None:
    linked = link_repository(FIXTURE, repo="ts")
    nodes = Nodes(linked)
    files = {SHAPES, "lib/clock.mjs", "run.js"}
    tiers, _edges = our_calls(linked, nodes, files)
    sites = set().union(*tiers.values())
    ran = ran_calls(named_runs(traced[0], nodes, files))
    figures = judge_sites(sites, set(), set(), set(), ran=ran, elsewhere=set())
    assert figures["sites"] >= 10
    assert figures["run_confirmed"] == figures["sites"]
