"""Runtime oracle: which test executed which function, from coverage.py with per-test contexts.

Usage (from the repository root; the first run downloads the sdist and builds the test venv)::

    python -m benchmarks.oracles.runtime_tests [httpx==0.28.1 ...] [--out FILE]

Runs the package's own suite as ``coverage run -m pytest`` in its venv (``runtime_env``), with
``runtime_plugin`` switching coverage's context to ``<nodeid>|setup``, ``|run``, ``|teardown``
around each test phase (the contexts ``pytest --cov-context=test`` records). A function counts
as executed by a test when a line of its body outside nested functions' bodies ran in one of
that test's contexts; for a body that is only a docstring, the line 3.11 reports for the call
(the first decorator or the ``def``). Writes
``benchmarks/cache/oracles/runtime/<name>-<version>.tests.json`` (format:
``benchmarks/oracles/README.md``) and prints the sanity figures.

Never import ``graphrag_code`` from here.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.oracles.runtime_env import (
    RUNTIME_DIR,
    JsonDict,
    Suite,
    command_line,
    function_record,
    header,
    package_functions,
    prepare,
    run_suite,
    tests_section,
    write_json,
)


def _line_contexts(data_file: Path, root: Path) -> dict[str, dict[int, list[str]]]:
    """sdist-relative file -> line -> contexts that executed it."""
    import coverage

    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    result: dict[str, dict[int, list[str]]] = {}
    resolved_root = root.resolve()
    for measured in data.measured_files():
        path = Path(measured).resolve()
        if not path.is_relative_to(resolved_root):
            continue
        result[path.relative_to(resolved_root).as_posix()] = data.contexts_by_lineno(measured)
    return result


def build(suite: Suite, work: Path | None = None) -> JsonDict:
    """Run the suite under coverage and map executed lines to the package's functions."""
    import coverage

    work = work or RUNTIME_DIR / "work" / f"{suite.root.name}.tests"
    run = run_suite(suite, "coverage", work)
    functions = package_functions(suite.root, suite.import_root, suite.package)
    contexts = _line_contexts(work / ".coverage", suite.root)
    files = {info.file for info in functions.values()}
    if not files & contexts.keys():
        raise RuntimeError(f"coverage measured none of {suite.package}'s files: {run.command}")

    records: JsonDict = {}
    never: list[str] = []
    outside: list[str] = []
    for qualified_name, info in functions.items():
        by_line = contexts.get(info.file, {})
        seen: set[str] = set()
        for line in info.probe_lines:
            seen.update(by_line.get(line, ()))
        tests = sorted({c.rpartition("|")[0] for c in seen if c})
        in_run = {c.rpartition("|")[0] for c in seen if c.endswith("|run")}
        record = function_record(info)
        record["tests"] = tests
        fixture_only = [t for t in tests if t not in in_run]
        if fixture_only:
            record["fixture_only_tests"] = fixture_only
        records[qualified_name] = record
        if not seen:
            never.append(qualified_name)
        elif not tests:
            outside.append(qualified_name)
    data = {
        **header(suite, run),
        "coverage": coverage.__version__,
        "tests": tests_section(suite, run.report),
        "functions": records,
        "never_executed": never,
        "executed_outside_tests": outside,
    }
    data["summary"] = summarize(data)
    return data


def summarize(data: JsonDict) -> JsonDict:
    """Sanity figures: tests, functions, functions executed by a test, mean tests per function."""
    functions = data["functions"]
    executed = [f for f in functions.values() if f["tests"]]
    total_links = sum(len(f["tests"]) for f in executed)
    return {
        "tests_run": sum(
            data[k] for k in ("passed", "failed", "errors", "xfailed", "xpassed") if k in data
        ),
        "functions": len(functions),
        "executed_by_a_test": len(executed),
        "executed_outside_tests_only": len(data["executed_outside_tests"]),
        "never_executed": len(data["never_executed"]),
        "mean_tests_per_function": round(total_links / len(functions), 1) if functions else 0.0,
        "mean_tests_per_executed_function": (
            round(total_links / len(executed), 1) if executed else 0.0
        ),
    }


def default_out(suite: Suite) -> Path:
    """``benchmarks/cache/oracles/runtime/<name>-<version>.tests.json``."""
    return RUNTIME_DIR / f"{suite.root.name}.tests.json"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    entries, chosen_out = command_line("per-test coverage oracle", argv)
    for entry in entries:
        suite = prepare(entry)
        data = build(suite)
        out = chosen_out or default_out(suite)
        write_json(out, data)
        counts = {k: data[k] for k in ("passed", "failed", "errors", "skipped")}
        print(f"{entry.spec}: {counts} {data['summary']} -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
