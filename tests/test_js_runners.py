"""The JavaScript mutant benchmark's Jest / Vitest oracle (stop 67): which test files failed,
from the runner's JSON report (offline: the report as Jest 30 and Vitest 4 write it)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.impact.js_runners import outcomes


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
