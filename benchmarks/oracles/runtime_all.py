"""Run the runtime oracles (coverage per test, call tracer, vulture) and print the figures.

Usage (from the repository root)::

    python -m benchmarks.oracles.runtime_all [NAME==VERSION ...] [--summary-only]

Each package's suite runs twice, one run at a time (coverage, then the tracer), then vulture;
``--summary-only`` reads the JSON files already in ``benchmarks/cache/oracles/runtime/``.
Prints one Markdown table (the one in ``benchmarks/oracles/README.md``).
"""

from __future__ import annotations

import argparse
import json

from benchmarks.oracles import dead_vulture, runtime_calls, runtime_tests
from benchmarks.oracles.runtime_env import RUNTIME_DIR, JsonDict, parse_specs

_COLUMNS = (
    "package",
    "tests run (passed / failed / skipped / deselected)",
    "functions",
    "executed by >= 1 test",
    "never executed",
    "mean tests per function (per executed one)",
    "runtime edges (explicit)",
    "chains >= 3 (tests)",
    "deepest chains >= 3",
    "vulture functions (never executed)",
    "suite wall s (coverage / tracer)",
)


def _row(key: str) -> str:
    tests: JsonDict = json.loads((RUNTIME_DIR / f"{key}.tests.json").read_text("utf-8"))
    calls: JsonDict = json.loads((RUNTIME_DIR / f"{key}.calls.json").read_text("utf-8"))
    vulture_path = RUNTIME_DIR / f"{key}.vulture.json"
    vulture = json.loads(vulture_path.read_text("utf-8")) if vulture_path.is_file() else None
    s, c = tests["summary"], calls["summary"]
    cells = [
        f"{tests['package']} {tests['version']}",
        f"{s['tests_run']} ({tests['passed']} / {tests['failed']} / {tests['skipped']} / "
        f"{len(tests['deselected'])})",
        str(s["functions"]),
        str(s["executed_by_a_test"]),
        str(s["never_executed"]),
        f"{s['mean_tests_per_function']} ({s['mean_tests_per_executed_function']})",
        f"{c['edges']} ({c['explicit_edges']})",
        f"{c['chains_min_3']} ({c['tests_with_chain_min_3']})",
        str(c["deepest_chains_min_3"]),
        (
            f"{vulture['summary']['functions']} "
            f"({vulture['summary'].get('functions_never_executed', '?')})"
            if vulture
            else "-"
        ),
        f"{tests['wall_time_s']} / {calls['wall_time_s']}",
    ]
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description="run every runtime oracle")
    parser.add_argument("specs", nargs="*", metavar="NAME==VERSION")
    parser.add_argument("--summary-only", action="store_true")
    args = parser.parse_args(argv)
    entries = parse_specs(args.specs)
    if not args.summary_only:
        for entry in entries:
            spec = [entry.spec]
            runtime_tests.main(spec)
            runtime_calls.main(spec)
            dead_vulture.main(spec)
    print("| " + " | ".join(_COLUMNS) + " |")
    print("|" + " --- |" * len(_COLUMNS))
    for entry in entries:
        print(_row(entry.key))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
