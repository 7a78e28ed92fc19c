"""Test selection judged by mutants (issue 54), a skeleton: first-order mutants of a package's
functions, the tests each one fails (the oracle: the whole suite run per mutant), and the
tests `diff` would select for it: with coverage (the tests that ran the function), with
coverage + static (all `diff` lists), static alone (the reach graph) and everything.

A mutant flips one comparison operator or boolean constant inside one function's body
(`tokenize`, one token, so one line and one function change: a body edit, whose coverage
stays fresh). The suite runs on a copy of the sdist with the copy first on `PYTHONPATH`, so
the shared cache is never written. Safety: the share of mutants (that some test kills) for
which every failing test is selected; size: the median share of the graph's tests selected.

    .venv/bin/python -m benchmarks.impact.mutants click==8.1.7 --mutants 5 [--json out.json]

Needs what `coverage_select` needs (Neo4j, the runtime venv); records and imports coverage
first (`coverage_select.recorded_graph`).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.impact.coverage_select import recorded_graph
from graphrag_code.graph import GraphReader, Neo4jClient
from graphrag_code.impact.coverage import runner_of_context
from graphrag_code.impact.tests import ran_tests, reaching_tests, runner_id

__all__ = ["Mutant", "mutants_of"]

_FLIPS = {
    "<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "==",
    "True": "False", "False": "True",
}  # fmt: skip
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


@dataclass(frozen=True)
class Mutant:
    path: str  # relative to the sdist root
    line: int
    column: int
    old: str
    new: str


def mutants_of(source: str, path: str, spans: list[tuple[int, int]]) -> list[Mutant]:
    """One mutant per flippable token on a line inside one of `spans` (function bodies)."""
    found: list[Mutant] = []
    inside = {line for start, end in spans for line in range(start + 1, end + 1)}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        line, column = token.start
        if token.string in _FLIPS and line in inside and token.type in (tokenize.OP, tokenize.NAME):
            found.append(Mutant(path, line, column, token.string, _FLIPS[token.string]))
    return found


def _apply(root: Path, mutant: Mutant) -> str:
    """Write the mutant into the copy; return the original text."""
    file = root / mutant.path
    original = file.read_text(encoding="utf-8")
    lines = original.splitlines(keepends=True)
    text = lines[mutant.line - 1]
    lines[mutant.line - 1] = (
        text[: mutant.column] + mutant.new + text[mutant.column + len(mutant.old) :]
    )
    file.write_text("".join(lines), encoding="utf-8")
    return original


def _failing(python: Path, root: Path, import_root: Path, args: tuple[str, ...]) -> set[str]:
    run = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=no", "-rfE",
         f"--rootdir={root}", *args],
        cwd=root, capture_output=True, text=True, timeout=900, check=False,
        env={"PYTHONPATH": str(import_root), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"},
    )  # fmt: skip
    return {test for m in _FAILED.finditer(run.stdout) if (test := runner_of_context(m.group(1)))}


def _selected(reader: GraphReader, node: str) -> tuple[set[str], set[str]]:
    def ids(edges: list[Any]) -> set[str]:
        return {runner_id(e.test.location.path, e.test.qualified_name, e.module) for e in edges}

    ran, stale = ran_tests(reader, [node], {})
    reached, _cut = reaching_tests(reader, [node])
    # trusting the coverage: the tests that ran it, or the static prediction for code the
    # coverage does not speak for alone (`ran_tests`' stale nodes)
    return (ids(reached) if stale else ids(ran)), ids(reached)


def _functions(client: Neo4jClient, repo: str) -> list[dict[str, Any]]:
    return client.read(
        "MATCH (n:Function|Method) WHERE n.repo = $repo AND NOT coalesce(n.test_code, false) "
        "RETURN n.id AS id, n.path AS path, n.start_line AS start, n.end_line AS end "
        "ORDER BY id",
        {"repo": repo},
    )


def run(spec: str, *, count: int, seed: int = 54) -> dict[str, Any]:
    recorded = recorded_graph(spec)
    suite, client, repo = recorded.suite, recorded.client, recorded.repo
    reader = GraphReader(client)
    functions = _functions(client, repo)
    by_path: dict[str, list[dict[str, Any]]] = {}
    for f in functions:
        by_path.setdefault(f["path"], []).append(f)
    candidates: list[tuple[Mutant, str]] = []
    for path, nodes in sorted(by_path.items()):
        source = (suite.root / path).read_text(encoding="utf-8")
        for mutant in mutants_of(source, path, [(n["start"], n["end"]) for n in nodes]):
            owner = min(
                (n for n in nodes if n["start"] < mutant.line <= n["end"]),
                key=lambda n: n["end"] - n["start"],
            )
            candidates.append((mutant, owner["id"]))
    picked = random.Random(seed).sample(candidates, min(count, len(candidates)))
    tests = client.read(
        "MATCH (t:Code) WHERE t.repo = $repo AND t.test_role = 'test' RETURN count(t) AS n",
        {"repo": repo},
    )[0]["n"]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mutants-") as temp:
        copy = Path(temp) / suite.root.name
        shutil.copytree(suite.root, copy, symlinks=True)
        import_root = copy / suite.import_root.relative_to(suite.root)
        baseline = _failing(suite.python, copy, import_root, suite.pytest_args)
        for mutant, node in picked:
            original = _apply(copy, mutant)
            try:
                failing = _failing(suite.python, copy, import_root, suite.pytest_args) - baseline
            finally:
                (copy / mutant.path).write_text(original, encoding="utf-8")
            ran, static = _selected(reader, node)
            rows.append({"mutant": mutant.__dict__, "node": node, "failing": sorted(failing),
                         "ran": len(ran), "static": len(static), "listed": len(ran | static),
                         "safe": {"ran": failing <= ran, "static": failing <= static,
                                  "listed": failing <= (ran | static)}})  # fmt: skip
    killed = [r for r in rows if r["failing"]]

    def summary(kind: str) -> dict[str, float]:
        safe = sum(r["safe"][kind] for r in killed) / len(killed) if killed else 0.0
        sizes = [r[kind] for r in rows]
        size = statistics.median(sizes) / tests if sizes and tests else 0.0
        return {"safety": round(safe, 3), "median_share": round(size, 4)}

    return {
        "package": suite.root.name, "tests": tests, "mutants": len(rows), "killed": len(killed),
        "coverage": summary("ran"), "coverage_static": summary("listed"),
        "static": summary("static"), "everything": {"safety": 1.0, "median_share": 1.0},
        "rows": rows,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="+", help="runtime oracle specs: click==8.1.7")
    parser.add_argument("--mutants", type=int, default=100, help="mutants per package")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = [run(spec, count=args.mutants) for spec in args.packages]
    for r in results:
        print(
            f"{r['package']}: {r['mutants']} mutants, {r['killed']} killed; safety / median "
            f"share: coverage {r['coverage']['safety']} / {r['coverage']['median_share']}, "
            f"coverage + static {r['coverage_static']['safety']} / "
            f"{r['coverage_static']['median_share']}, static {r['static']['safety']} / "
            f"{r['static']['median_share']}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
