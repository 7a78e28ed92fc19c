"""How the JavaScript mutant benchmark (`benchmarks.impact.js_mutants`) runs a package's
tests, by its test runner (stop 67): `node FILE` per test file (node:test, stop 66), or one
Jest or Vitest process for the whole suite, whose JSON report says which files failed.

A test runner that starts a process per suite shares its start-up (the TypeScript transform,
the module graph) among the files; a file's failure is its report's `status`, and a file the
report does not name (the runner crashed on it) failed. The coverage each test file ran is
recorded as the README says, one folder per file: `NODE_V8_COVERAGE` for node, the runner's
own Istanbul JSON for Jest (its default instrumenter) and Vitest (`@vitest/coverage-v8`).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

__all__ = ["Runner", "outcomes", "record_file", "run_file", "run_suite"]

Runner = Literal["node", "jest", "vitest"]
Outcome = Literal["pass", "fail", "timeout"]


def _env(extra: Mapping[str, str], coverage: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NODE_", "npm_"))}
    env.update(extra)
    if coverage is not None:
        env["NODE_V8_COVERAGE"] = str(coverage)
    return env


def _bin(copy: Path, runner: Runner) -> str:
    return str(copy / "node_modules" / ".bin" / runner)


def _command(copy: Path, runner: Runner, config: str | None) -> list[str]:
    """The runner's command line for a whole run, less the files and the report."""
    if runner == "jest":
        return [_bin(copy, "jest"), "--ci", "--maxWorkers=2", "--coverage=false"] + (
            ["--config", config] if config else []
        )
    return [_bin(copy, "vitest"), "run", "--maxWorkers=2"] + (
        ["--config", config] if config else []
    )


def run_file(
    copy: Path, runner: Runner, file: str, timeout: float, env: Mapping[str, str],
    config: str | None = None, coverage: Path | None = None,
) -> Outcome:  # fmt: skip
    """`pass`, `fail` or `timeout` of one test file run alone."""
    if runner == "node":
        command = ["nice", "-n", "10", "node", file]
    else:
        return run_suite(copy, runner, [file], timeout, env, config).get(file, "fail")
    try:
        done = subprocess.run(
            command, cwd=copy, env=_env(env, coverage), capture_output=True,
            timeout=timeout, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timeout"
    return "pass" if done.returncode == 0 else "fail"


def run_suite(
    copy: Path, runner: Runner, files: list[str], timeout: float, env: Mapping[str, str],
    config: str | None = None,
) -> dict[str, Outcome]:  # fmt: skip
    """Each of `files` run in one Jest or Vitest process: every file `timeout` where the
    run did not end in time."""
    with tempfile.TemporaryDirectory(prefix="js-runner-") as temp:
        report = Path(temp) / "report.json"
        if runner == "jest":
            tail = ["--json", f"--outputFile={report}", "--runTestsByPath", *files]
        else:
            tail = ["--reporter=json", f"--outputFile={report}", *files]
        command = ["nice", "-n", "10", *_command(copy, runner, config), *tail]
        try:
            subprocess.run(
                command, cwd=copy, env=_env(env), capture_output=True, timeout=timeout,
                check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return dict.fromkeys(files, "timeout")
        try:
            results = json.loads(report.read_text(encoding="utf-8"))["testResults"]
        except (OSError, ValueError, KeyError):
            return dict.fromkeys(files, "fail")  # no report: the runner itself failed
    return outcomes(results, copy, files)


def outcomes(results: list[dict[str, object]], copy: Path, files: list[str]) -> dict[str, Outcome]:
    """Each file's outcome from a Jest or Vitest JSON report's `testResults` (absolute
    names): passed where the report says so, else (failed, or not in it) failed."""
    base = copy.resolve()
    passed = {
        Path(str(r["name"])).resolve().relative_to(base).as_posix()
        for r in results
        if r.get("status") == "passed"
    }
    return {file: "pass" if file in passed else "fail" for file in files}


def record_file(
    copy: Path, runner: Runner, file: str, folder: Path, env: Mapping[str, str],
    config: str | None = None,
) -> None:  # fmt: skip
    """One test file's coverage into `folder` beside its `test-file.txt`, the README's way."""
    if runner == "node":
        folder.mkdir(parents=True)
        run_file(copy, runner, file, 600.0, env, coverage=folder)
    elif runner == "jest":
        folder.mkdir(parents=True)
        subprocess.run(
            ["nice", "-n", "10", _bin(copy, "jest"), "--runTestsByPath", file, "--coverage",
             "--coverageReporters=json", f"--coverageDirectory={folder}",
             "--coverageThreshold={}"] + (["--config", config] if config else []),
            cwd=copy, env=_env(env), capture_output=True, timeout=600, check=False,
        )  # fmt: skip
    else:  # Vitest empties the reports folder first: test-file.txt is written after
        subprocess.run(
            ["nice", "-n", "10", _bin(copy, "vitest"), "run", file, "--coverage.enabled",
             "--coverage.reporter=json", f"--coverage.reportsDirectory={folder}"]
            + (["--config", config] if config else []),
            cwd=copy, env=_env(env), capture_output=True, timeout=600, check=False,
        )  # fmt: skip
        folder.mkdir(parents=True, exist_ok=True)
    (folder / "test-file.txt").write_text(file + "\n", encoding="utf-8")
