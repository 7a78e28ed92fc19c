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
import signal
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


def _run(command: list[str], copy: Path, env: Mapping[str, str], timeout: float) -> int | None:
    """The command's exit status, or None where it ran past `timeout`: then its whole process
    group is killed, since a runner's workers (Jest's) outlive a killed parent and, on a
    mutant that loops, burned a core each for the rest of the benchmark (stop 67)."""
    with subprocess.Popen(
        command, cwd=copy, env=dict(env), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    ) as process:  # fmt: skip
        try:
            return process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return None


def run_file(
    copy: Path, runner: Runner, file: str, timeout: float, env: Mapping[str, str],
    config: str | None = None, coverage: Path | None = None,
) -> Outcome:  # fmt: skip
    """`pass`, `fail` or `timeout` of one test file run alone."""
    if runner == "node":
        command = ["nice", "-n", "10", "node", file]
    else:
        return run_suite(copy, runner, [file], timeout, env, config).get(file, "fail")
    status = _run(command, copy, _env(env, coverage), timeout)
    if status is None:
        return "timeout"
    return "pass" if status == 0 else "fail"


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
        if _run(command, copy, _env(env), timeout) is None:
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
        _run(
            ["nice", "-n", "10", _bin(copy, "jest"), "--runTestsByPath", file, "--coverage",
             "--coverageReporters=json", f"--coverageDirectory={folder}",
             "--coverageThreshold={}"] + (["--config", config] if config else []),
            copy, _env(env), 600.0,
        )  # fmt: skip
    else:  # Vitest empties the reports folder first: test-file.txt is written after
        _run(
            ["nice", "-n", "10", _bin(copy, "vitest"), "run", file, "--coverage.enabled",
             "--coverage.reporter=json", f"--coverage.reportsDirectory={folder}"]
            + (["--config", config] if config else []),
            copy, _env(env), 600.0,
        )  # fmt: skip
        folder.mkdir(parents=True, exist_ok=True)
    (folder / "test-file.txt").write_text(file + "\n", encoding="utf-8")
