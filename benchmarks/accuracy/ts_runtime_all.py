"""Each TS/JS package's own test suite run under the call tracer, and every tier of our CALLS
sites judged by the checker, then by that running code (issue 50).

    # once per package: the sources at the release tag (`git archive TAG | tar -x -C DIR`), in
    # DIR = benchmarks/cache/oracles/ts_runtime/<code base>/ (`Suite.source` says which; the
    # npm tarball is copied where it ships its tests); `--run` then installs `Suite.dev`
    nice -n 10 python -m benchmarks.accuracy.ts_runtime_all --set heldout --run   # the suites
    python -m benchmarks.accuracy.ts_runtime_all --set heldout --json X.json --md X.md

`--run` runs the suite of every code base of the set that has one (`SUITES`) with
`benchmarks/oracles/ts/runtime_trace.js` required in every node process: each function of the
analysed files is instrumented as it loads and each call into it records its caller's file and
line. It writes `<code base>.trace.tsv` and `<code base>.run.json` (command, tests passed and
failed, seconds, and the analysed files that differ from the oracle's copy) beside the scratch
folders. Without `--run` the traces already there are judged (`ts_runtime_judge`); a code base
without a trace is judged by the checker alone and says why it has none.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.accuracy.ts_accuracy import (
    ORACLE_DIR,
    Nodes,
    _unjudged,
    checker_calls,
    our_calls,
    set_of,
)
from benchmarks.accuracy.ts_runtime_judge import (
    TraceError,
    TraceRow,
    judge_tiers,
    named_runs,
    pool,
    ran_calls,
    read_trace,
    went_elsewhere,
)
from benchmarks.oracles.packages import ORACLE_OUT_DIR
from benchmarks.oracles.ts_oracle import TS_SETS, PinnedCodebase, ensure_node_deps
from graphrag_code.ingest.offline import link_repository

RUNTIME_DIR = ORACLE_OUT_DIR / "ts_runtime"
TRACER = Path(__file__).resolve().parents[1] / "oracles" / "ts" / "runtime_trace.js"


@dataclass(frozen=True)
class Suite:
    """How a code base's own tests run, or why they do not."""

    source: str
    """Where the scratch folder's sources come from (the tarball or a repository at a tag)."""
    command: str = ""
    """Shell command run in the scratch folder; empty when the suite cannot run here."""
    skipped: str = ""
    """Why the suite does not run (with an empty command)."""
    timeout_s: int = 900
    dev: tuple[str, ...] = ()
    """The devDependencies installed: the test runner and what the tests import (linters,
    type checkers, coverage and benchmark tools left out)."""


def _jest_config(tests: str, ignore: str = "/node_modules/", then: str = "") -> str:
    """A jest config (shell-quoted JSON) that runs the tests matching `tests` with the tracer's
    transformer instead of the suite's own (which never sees `Module.prototype._compile`), and
    then `then` (`babel-jest`, keeping lines) where the suite needs its transform."""
    transform: Any = str(TRACER.with_name("runtime_jest_transform.js"))
    if then:
        transform = [transform, {"then": then}]
    config = {
        "testEnvironment": "node",
        "transform": {"\\.js$": transform},
        "testRegex": tests,
        "testPathIgnorePatterns": ["/node_modules/", ignore],
    }
    return shlex.quote(json.dumps(config))


_TS_SOURCES = (
    "TypeScript sources: its suite runs them through a compiler (ts-jest, vitest, ts-node), "
    "whose output's lines differ; not attempted"
)
_TSC_OUTPUT = (
    "the analysed files are tsc's output (lib/*.js); its suite runs src/*.ts, not them; "
    "not attempted"
)

SUITES: dict[str, Suite] = {
    "mobx-6.13.7": Suite("github:mobxjs/mobx", skipped=_TS_SOURCES),
    "blueprintjs+core-5.16.0": Suite("github:palantir/blueprint", skipped=_TS_SOURCES),
    "react-day-picker-8.10.1": Suite("github:gpbl/react-day-picker", skipped=_TS_SOURCES),
    "immer-10.1.1": Suite("github:immerjs/immer", skipped=_TS_SOURCES),
    "tanstack+query-core-5.59.0": Suite("github:TanStack/query", skipped=_TS_SOURCES),
    "ajv-8.17.1": Suite("github:ajv-validator/ajv", skipped=_TS_SOURCES),
    "rxjs-7.8.1": Suite("github:ReactiveX/rxjs", skipped=_TS_SOURCES),
    "zod-3.23.8": Suite("github:colinhacks/zod", skipped=_TSC_OUTPUT),
    "oclif+core-4.0.33": Suite("github:oclif/core", skipped=_TSC_OUTPUT),
    "mocha-10.8.2": Suite(
        "github:mochajs/mocha@v10.8.2",
        # its test-node:unit and test-node:reporters scripts, without nyc; the integration
        # tests need a browser bundle built first (not run)
        "node bin/mocha.js --forbid-only --timeout 20000 'test/unit/*.spec.js' "
        "'test/node-unit/**/*.spec.js' 'test/reporters/*.spec.js'",
        dev=(
            "chai",
            "fs-extra",
            "rewiremock",
            "sinon",
            "strip-ansi",
            "unexpected",
            "unexpected-eventemitter",
            "unexpected-map",
            "unexpected-set",
            "unexpected-sinon",
        ),
    ),
    "express-4.21.2": Suite(
        "github:expressjs/express@4.21.2",
        "node_modules/.bin/mocha --require test/support/env --reporter dot --check-leaks "
        "test/ test/acceptance/",
        dev=(
            "after",
            "cookie-parser",
            "cookie-session",
            "ejs",
            "express-session",
            "hbs",
            "marked",
            "method-override",
            "mocha",
            "morgan",
            "pbkdf2-password",
            "supertest",
            "vhost",
        ),
    ),
    "commander-12.1.0": Suite(
        "github:tj/commander.js@v12.1.0",
        "node_modules/.bin/jest --no-cache -w 2 --testTimeout=30000 --config "
        + _jest_config("tests/.*\\.test\\.js$"),
        dev=("jest",),
    ),
    "koa-2.15.3": Suite(
        "github:koajs/koa@2.15.3",
        "node_modules/.bin/jest --no-cache -w 2 --testTimeout=30000 --forceExit --config "
        + _jest_config("__tests__/.*\\.js$", ignore="/__tests__/.*(helpers|fixtures)/"),
        dev=("jest", "supertest"),
    ),
    "joi-17.13.3": Suite(
        "github:hapijs/joi@v17.13.3",
        # lab's own leak check would flag the tracer's one global; no coverage, no lint
        "node_modules/.bin/lab -a @hapi/code -l -t 0",
        dev=("@hapi/bourne", "@hapi/code", "@hapi/joi-legacy-test", "@hapi/lab"),
    ),
    "fastify-4.28.1": Suite(
        "npm tarball fastify@4.28.1 (ships test/ and .taprc)",
        # .taprc: test/**/*.test.{js,mjs}, no coverage, --allow-natives-syntax
        # the raw TAP stream: the classic reporter stopped printing part-way
        "node_modules/.bin/tap --jobs=2 --timeout=300 -R tap",
        timeout_s=1500,
        dev=(
            "@sinclair/typebox",
            "@sinonjs/fake-timers",
            "ajv",
            "ajv-errors",
            "ajv-formats",
            "ajv-i18n",
            "ajv-merge-patch",
            "cross-env",
            "fast-json-body",
            "fastify-plugin",
            "fluent-json-schema",
            "form-data",
            "h2url",
            "http-errors",
            "joi",
            "JSONStream",
            "node-forge",
            "proxyquire",
            "send",
            "simple-get",
            "split2",
            "tap",
            "undici",
            "vary",
            "yup",
        ),
    ),
    "ws-8.18.0": Suite(
        "github:websockets/ws@8.18.0",
        "node_modules/.bin/mocha --reporter dot --timeout 20000 --throw-deprecation test/*.test.js",
        dev=("mocha",),
    ),
    "enquirer-2.4.1": Suite(
        "github:enquirer/enquirer@70bdb0f (the 2.4.1 release commit)",
        "node_modules/.bin/mocha --reporter dot",
        dev=("mocha",),
    ),
    "luxon-3.5.0": Suite(
        "github:moment/luxon@3.5.0",
        # its own config: jest with babel-jest (ES modules to CommonJS), New York time
        "TZ=America/New_York node_modules/.bin/jest --no-cache -w 2 --testTimeout=30000 "
        "--config " + _jest_config("/test/.*\\.test\\.js$", then="babel-jest"),
        dev=("@babel/core", "@babel/preset-env", "babel-jest", "jest"),
    ),
    "preact-10.24.3": Suite(
        "github:preactjs/preact@10.24.3",
        skipped="its suite runs in browsers through karma (JSX test files), not under node",
    ),
}


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def differing_files(scratch: Path, files: set[str]) -> list[str]:
    """Analysed files whose bytes in the scratch folder differ from the oracle's copy."""
    oracle = ORACLE_DIR / scratch.name
    return sorted(
        f for f in files if not (scratch / f).is_file() or _sha(scratch / f) != _sha(oracle / f)
    )


_COUNTS = (
    (re.compile(r"(\d+) passing"), "passed"),
    (re.compile(r"(\d+) failing"), "failed"),
    (re.compile(r"(\d+) pending"), "skipped"),
    (re.compile(r"^# pass\s+(\d+)", re.M), "passed"),
    (re.compile(r"^# fail\s+(\d+)", re.M), "failed"),
    (re.compile(r"^# (?:skip|todo)\s+(\d+)", re.M), "skipped"),
    (re.compile(r"^(\d+) tests? complete", re.M), "passed"),
    (re.compile(r"^(\d+) of \d+ tests? failed", re.M), "failed"),
    (re.compile(r"^(\d+) tests? skipped", re.M), "skipped"),
    (re.compile(r"^Tests:.*?(\d+) passed", re.M), "passed"),
    (re.compile(r"^Tests:.*?(\d+) failed", re.M), "failed"),
    (re.compile(r"^Tests:.*?(\d+) skipped", re.M), "skipped"),
)


_FILES = (
    (re.compile(r"^ok \d+ - ", re.M), "files_passed"),
    (re.compile(r"^not ok \d+ - ", re.M), "files_failed"),
)


def suite_counts(output: str) -> dict[str, int]:
    """Passed / failed / skipped tests from mocha's, jest's or lab's summary (the last one
    given); from a raw TAP stream (tap's `-R tap`), the test files that passed and failed."""
    counts: dict[str, int] = {}
    for pattern, key in _COUNTS:
        found = pattern.findall(output)
        if found:
            counts[key] = int(found[-1])
    if "passed" not in counts:
        for pattern, key in _FILES:
            counts[key] = len(pattern.findall(output))
    return counts


def prepare(entry: PinnedCodebase, suite: Suite) -> Path:
    """The scratch folder with its dependencies: package.json's devDependencies cut down to
    `suite.dev` (the original kept as package.json.orig), no scripts, `npm install`."""
    scratch = RUNTIME_DIR / entry.root_name
    if (scratch / "node_modules").is_dir():
        return scratch
    if suite.source.startswith("npm tarball") and not scratch.is_dir():
        shutil.copytree(ORACLE_DIR / entry.root_name, scratch)
    package = scratch / "package.json"
    if not package.is_file():
        raise SystemExit(f"{scratch}: put the sources of {suite.source} there first")
    manifest = json.loads(package.read_text())
    original = scratch / "package.json.orig"
    if not original.is_file():
        original.write_text(json.dumps(manifest, indent=2) + "\n")
    dev = manifest.get("devDependencies", {})
    manifest["devDependencies"] = {k: v for k, v in dev.items() if k in suite.dev}
    manifest.pop("scripts", None)
    package.write_text(json.dumps(manifest, indent=2) + "\n")
    install = ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock"]
    subprocess.run(install, cwd=scratch, check=True)
    return scratch


def run_suite(entry: PinnedCodebase, suite: Suite) -> dict[str, Any]:
    """Run the suite under the tracer; write the trace and what the run did."""
    scratch = prepare(entry, suite)
    # kept beside the trace, so that `runtime_trace.js finish` can be run again
    raw = RUNTIME_DIR / f"{entry.root_name}.raw"
    shutil.rmtree(raw, ignore_errors=True)
    raw.mkdir()
    env = {
        **os.environ,
        "GTRACE_ROOT": str(scratch),
        "GTRACE_INCLUDE": ",".join(entry.include),
        "GTRACE_OUT": str(raw),
        # the oracle's own typescript, wherever the benchmark cache is
        "GTRACE_TYPESCRIPT": str(ensure_node_deps() / "typescript"),
        "NODE_OPTIONS": f"--require {TRACER}",
    }
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["bash", "-c", suite.command],
            cwd=scratch,
            env=env,
            capture_output=True,
            text=True,
            timeout=suite.timeout_s,
            check=False,
        )
        output, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as expired:
        parts = (expired.stdout, expired.stderr)
        text = "".join(p.decode() if isinstance(p, bytes) else p or "" for p in parts)
        output, code = f"{text}timed out after {suite.timeout_s} s", -1
    seconds = round(time.monotonic() - started, 1)
    (RUNTIME_DIR / f"{entry.root_name}.log").write_text(str(output))
    trace = RUNTIME_DIR / f"{entry.root_name}.trace.tsv"
    subprocess.run(["node", str(TRACER), "finish", str(scratch), str(raw), str(trace)], check=True)
    calls = json.loads((ORACLE_DIR / f"{entry.root_name}.calls.json").read_text())
    info = {
        "source": suite.source,
        "command": suite.command,
        "exit_code": code,
        "seconds": seconds,
        "tests": suite_counts(str(output)),
        "differing_files": differing_files(scratch, set(calls["files"])),
    }
    (RUNTIME_DIR / f"{entry.root_name}.run.json").write_text(json.dumps(info, indent=1) + "\n")
    return info


def evaluate(entry: PinnedCodebase) -> dict[str, Any]:
    """Every tier of one code base, checker alone and checker then running code."""
    name = entry.root_name
    calls = json.loads((ORACLE_DIR / f"{name}.calls.json").read_text())
    linked = link_repository(ORACLE_DIR / name, repo="ts")
    files = set(calls["files"])
    nodes = Nodes(linked)
    checker, judged, unanswered = checker_calls(calls, nodes, files)
    tiers, _edges = our_calls(linked, nodes, files)
    unjudged = _unjudged(set().union(*tiers.values()), nodes, checker, unanswered)
    suite = SUITES.get(name)
    trace = RUNTIME_DIR / f"{name}.trace.tsv"
    run_file = RUNTIME_DIR / f"{name}.run.json"
    run: dict[str, Any] | None = None
    rows: list[TraceRow] = []
    if trace.is_file() and run_file.is_file():
        run = json.loads(run_file.read_text())
        differ = set(run["differing_files"])
        rows = [r for r in read_trace(trace) if r[0] not in differ and r[2] not in differ]
    runs = named_runs(rows, nodes, files)
    ran = ran_calls(runs)
    elsewhere = went_elsewhere(set().union(*tiers.values()), runs, nodes.called_as)
    why = "" if run else (suite.skipped if suite and suite.skipped else "no suite run")
    return {
        "package": f"{calls.get('package')}@{calls.get('version')}",
        "codebase": name,
        "set": set_of(name),
        "run": run,
        "not_run": why,
        "trace_rows": len(rows),
        "traced_calls_from_analysed_files": len(ran),
        "tiers": judge_tiers(tiers, checker, judged, unjudged, ran, elsewhere),
    }


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _tests(result: dict[str, Any]) -> str:
    run = result["run"]
    if run is None:
        return f"not run: {result['not_run']}"
    tests = run["tests"]
    if "files_passed" in tests:
        return f"{tests['files_passed']} test files passed / {tests['files_failed']} failed"
    return f"{tests.get('passed', '?')} passed / {tests.get('failed', 0)} failed"


TIER_ORDER = ("certain", "exact", "inferred", "name", "dispatch", "many", "signature", "partial")


def markdown(results: list[dict[str, Any]], pooled: dict[str, dict[str, Any]]) -> str:
    """Per code base and tier with sites, then each set pooled: the counts and precisions."""
    lines = [
        "| set | code base | suite (tests) | tier | sites | checker confirms | checker refutes "
        "| running code confirms (over the checker) | running code contradicts | not judged "
        "| P checker (all / judged) | P checker, then running code (all / judged) "
        "| checker-confirmed sites the run saw / contradicts |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [(r["set"], r["package"], _tests(r), r["tiers"]) for r in results]
    rows += [(name, f"all {name}, pooled", "", tiers) for name, tiers in pooled.items()]
    for set_name, package, tests, tiers in rows:
        for tier in TIER_ORDER:
            f = tiers.get(tier)
            if not f or not f["sites"]:
                continue
            lines.append(
                f"| {set_name} | {package} | {tests} | {tier} | {f['sites']} | "
                f"{f['checker_confirmed']} | {f['checker_refuted']} | {f['run_confirmed']} "
                f"({f['run_overrode_checker']}) | {f['contradicted']} | {f['not_judged']} | "
                f"{_cell(f['precision_before'])} / {_cell(f['judged_precision_before'])} | "
                f"{_cell(f['precision_after'])} / {_cell(f['judged_precision_after'])} | "
                f"{f['checker_confirmed_ran']} / {f['checker_confirmed_contradicted']} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("codebases", nargs="*", help="folders under benchmarks/cache/oracles/ts")
    parser.add_argument("--set", choices=sorted(TS_SETS), help="every code base of a set")
    parser.add_argument("--run", action="store_true", help="run the suites under the tracer")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--md", type=Path)
    args = parser.parse_args()
    entries = {e.root_name: e for e in TS_SETS["all"]}
    names = list(args.codebases) + [e.root_name for e in TS_SETS.get(args.set or "", ())]
    unknown = [n for n in names if n not in entries]
    if unknown or not names:
        raise SystemExit(f"name a set or code bases of {sorted(entries)} (unknown: {unknown})")
    if args.run:
        for name in names:
            suite = SUITES.get(name)
            if suite is not None and suite.command:
                info = run_suite(entries[name], suite)
                print(name, json.dumps(info["tests"]), f"{info['seconds']} s")
    try:
        results = [evaluate(entries[name]) for name in names]
    except TraceError as error:
        raise SystemExit(f"{error} (rerun the suite with --run)") from None
    sets = list(dict.fromkeys(r["set"] for r in results))
    pooled = {s: pool([r["tiers"] for r in results if r["set"] == s]) for s in sets}
    table = markdown(results, pooled)
    print(table)
    if args.md:
        args.md.parent.mkdir(parents=True, exist_ok=True)
        args.md.write_text(table + "\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"results": results, "pooled": pooled}, indent=1) + "\n")


if __name__ == "__main__":
    main()
