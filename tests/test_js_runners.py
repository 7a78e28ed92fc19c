"""The JavaScript mutant benchmark's Jest / Vitest oracle (stop 67): which test files failed,
from the runner's JSON report (offline: the report as Jest 30 and Vitest 4 write it)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from benchmarks.impact.js_runners import outcomes, run_file


def test_a_file_failed_unless_the_report_says_it_passed(tmp_path: Path) -> None:
    copy = tmp_path / "pkg"
    results: list[dict[str, object]] = [
        {"name": str(copy / "tests" / "a.test.ts"), "status": "passed"},
        {"name": str(copy / "tests" / "b.test.ts"), "status": "failed"},
    ]
    files = ["tests/a.test.ts", "tests/b.test.ts", "tests/c.test.ts"]
    # c is not in the report: the runner crashed on it (a mutant that breaks its import)
    assert outcomes(results, copy, files) == {
        "tests/a.test.ts": "pass",
        "tests/b.test.ts": "fail",
        "tests/c.test.ts": "fail",
    }


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node on PATH")
def test_a_file_past_its_timeout_takes_the_processes_it_started_with_it(tmp_path: Path) -> None:
    # a looping mutant under a runner's worker: the worker must not outlive the timeout
    (tmp_path / "loop.test.js").write_text(
        "const { spawn } = require('node:child_process');\n"
        "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'],"
        " { stdio: 'ignore' });\n"
        "require('node:fs').writeFileSync('worker.pid', String(child.pid));\n"
        "setInterval(() => {}, 1000);\n",
        encoding="utf-8",
    )
    assert run_file(tmp_path, "node", "loop.test.js", 3.0, {}) == "timeout"
    worker = int((tmp_path / "worker.pid").read_text(encoding="utf-8"))
    for _ in range(50):  # the kill is sent; the kernel reaps it within moments
        if not _alive(worker):
            break
        time.sleep(0.1)
    assert not _alive(worker)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
