"""An estimate for issue 54's selection size, from the mutant benchmark's cached oracles and
coverage runs: `diff`'s tests to run with the tests that are there only because they ran
the mutated function narrowed to those whose recorded lines hold a line of the mutated
statement.

Not a selection `diff` makes: RAN edges hold functions, not lines. On tabulate the function
is too coarse a unit (BENCHMARKS §21, stop 66): 209 of its 284 tests run the pipeline every
`tabulate()` call runs, while far fewer run a given line of it. This says what a
line-level selection would give before anyone builds one. A mutant whose change the
coverage does not speak for (`DiffImpact.coverage.static`: changed, new or run outside every
test) keeps its list whole; tests listed for a reason besides having run the function
(kept state, a child process, a changed test) are kept.

    .venv/bin/python -m benchmarks.impact.mutants_lines tabulate==0.9.0 marshmallow==3.23.1

Needs the oracle cached by `benchmarks.impact.mutants` (it runs no suite) and Neo4j; each
package is indexed under a scratch name, removed after.
"""

from __future__ import annotations

import argparse
import difflib
import json
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.impact.mutants import Oracle, _candidates, _coverage_file, _safe
from benchmarks.impact.mutator import apply, pick
from benchmarks.oracles.runtime_env import parse_specs, prepare
from graphrag_code import CodeGraph
from graphrag_code.impact import TestToRun, import_coverage
from graphrag_code.impact.coverage import runner_of_context
from graphrag_code.impact.tests import runner_id

__all__ = ["run"]

_RAN_ONLY = "ran it (coverage)"


def _line_tests(data_file: Path, root: Path) -> dict[str, dict[int, set[str]]]:
    """Path under the root -> line -> the tests whose recorded contexts hold it."""
    from coverage import CoverageData

    data = CoverageData(basename=str(data_file))
    data.read()
    found: dict[str, dict[int, set[str]]] = {}
    for measured in data.measured_files():
        path = Path(measured)
        if not path.is_relative_to(root):
            continue
        lines = found.setdefault(path.relative_to(root).as_posix(), {})
        for line, contexts in data.contexts_by_lineno(measured).items():
            tests = {runner_of_context(c) for c in contexts if c}
            lines[line] = {t for t in tests if t is not None}
    return found


def _statement_lines(text: str, line: int) -> set[int]:
    """The lines of the statement holding `line`: a test evaluating a condition split over
    lines may record any of them (tabulate's `elif (… and len(rows) > 0 …):`)."""
    from coverage.parser import PythonParser

    parser = PythonParser(text=text)
    parser.parse_source()
    first = parser.first_line(line)
    count = text.count("\n") + 1
    return {n for n in range(first, count + 1) if parser.first_line(n) == first} | {line}


def _narrowed(tests: list[TestToRun], on_line: set[str]) -> set[str]:
    """The tests to run, those there only for having run the function kept where they
    ran the line."""
    return {
        t.runner_id
        for t in tests
        if not (t.ran and t.reason == _RAN_ONLY and not t.changed) or t.runner_id in on_line
    }


def run(spec: str, *, count: int = 100, seed: int = 54) -> dict[str, Any]:
    """The estimate for one package (`tabulate==0.9.0`)."""
    (entry,) = parse_specs([spec])
    suite = prepare(entry)
    picked = pick(_candidates(suite), count, seed)
    root = suite.root.resolve()
    lines = _line_tests(_coverage_file(suite), root)
    name = f"mutl66-{suite.root.name}"
    graph = CodeGraph()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mutants-lines-") as temp:
        copy = Path(temp) / suite.root.name
        shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        graph.index(copy, name, full=True, embed=False, move=True)
        try:
            import_coverage(graph.client, name, _coverage_file(suite), root=str(root), commit=None)
            tests = {
                case
                for row in graph.client.read(
                    "MATCH (t:Code {repo: $repo, test_role: 'test'}) "
                    "RETURN t.path AS path, t.qualified_name AS name, t.module AS module, "
                    "t.test_cases AS cases",
                    {"repo": name},
                )
                for case in row["cases"] or (runner_id(row["path"], row["name"], row["module"]),)
            }
            # the cached outcomes only: no suite runs, no timed-out mutant tried again
            oracle = Oracle(suite, copy, min_timeout=0.0)
            for mutant in picked:
                outcome = oracle.outcome(mutant)
                file = copy / mutant.path
                original = file.read_text(encoding="utf-8")
                patch = "".join(
                    difflib.unified_diff(
                        original.splitlines(keepends=True),
                        apply(original, mutant).splitlines(keepends=True),
                        f"a/{mutant.path}", f"b/{mutant.path}",
                    )
                )  # fmt: skip
                file.write_text(apply(original, mutant), encoding="utf-8")
                try:
                    impact = graph.diff(
                        patch=patch, path=copy, repo=name, update=False, limit=10_000
                    )
                finally:
                    file.write_text(original, encoding="utf-8")
                to_run = {t.runner_id for t in impact.to_run}
                speaks = impact.coverage is not None and not impact.coverage.static
                recorded = lines.get(mutant.path, {})
                statement = _statement_lines(original, mutant.line)
                on_line = {t for n in statement for t in recorded.get(n, ())}
                narrowed = _narrowed(impact.to_run, on_line) if speaks else to_run
                row: dict[str, Any] = {
                    "mutant": f"{mutant.path}:{mutant.line}", "status": outcome.status,
                    "to_run": len(to_run), "lines": len(narrowed),
                }  # fmt: skip
                if outcome.status == "killed":
                    row["safe"] = _safe(outcome.failing, to_run)[0]
                    row["safe_lines"], missed = _safe(outcome.failing, narrowed)
                    row["missed_lines"] = missed
                rows.append(row)
        finally:
            graph.delete(name)
            graph.close()
    return _summary(suite.root.name, len(tests), rows)


def _summary(package: str, tests: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    killed = [r for r in rows if r["status"] == "killed"]
    figures: dict[str, Any] = {"package": package, "graph_tests": tests, "killed": len(killed)}
    for kind, safe in (("to_run", "safe"), ("lines", "safe_lines")):
        shares = [r[kind] / tests for r in rows] if tests else [0.0]
        figures[kind] = {
            "safety": round(sum(r[safe] for r in killed) / len(killed), 3) if killed else None,
            "median_share": round(statistics.median(shares), 4),
            "mean_share": round(statistics.mean(shares), 4),
        }
    figures["missed_lines"] = [
        {"mutant": r["mutant"], "missed": r["missed_lines"]} for r in killed if r["missed_lines"]
    ]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("packages", nargs="+", help="runtime oracle specs: tabulate==0.9.0")
    parser.add_argument("--mutants", type=int, default=100, help="mutants per package")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = []
    for spec in args.packages:
        result = run(spec, count=args.mutants, seed=args.seed)
        results.append(result)
        to_run, lines = result["to_run"], result["lines"]
        print(
            f"{result['package']}: {result['killed']} killed; to run {to_run['safety']} / "
            f"{to_run['median_share']:.1%} (mean {to_run['mean_share']:.1%}); narrowed to the "
            f"line {lines['safety']} / {lines['median_share']:.1%} "
            f"(mean {lines['mean_share']:.1%}); missed {result['missed_lines']}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
