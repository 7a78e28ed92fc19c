"""Predicted tests against the tests that really executed each function (issue 16).

Ground truth: `benchmarks/oracles/runtime_tests.py` ran each package's own test suite under
coverage.py with per-test contexts and wrote, per function of the package, the tests that
executed it (`<name>-<version>.tests.json`). Here the same source tree is indexed and, for
each function the oracle lists, our predicted tests (the tests from which a REACHES chain
leads to it) are compared with the tests that ran it: recall over the functions some test
executed, precision over the functions we predict tests for (a function no test ran counts
as precision 0), both macro-averaged over functions; also with certain edges only (exact and
inferred).

    .venv/bin/python -m benchmarks.impact.impact_tests [flask-3.0.3 ...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common.runtime_oracle import Spans, index_folder, load_json, oracle_files
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.api import connect
from graphrag_code.graph import GraphReader
from graphrag_code.impact.tests import reaching_tests
from graphrag_code.settings import load_settings

__all__ = ["Scores", "score"]


@dataclass
class Scores:
    functions: int = 0  # functions the oracle lists
    mapped: int = 0  # ... that map onto a graph node
    executed: int = 0  # ... that some (mapped) test executed
    predicted: int = 0  # ... that we predict at least one test for
    recall: float = 0.0  # macro over executed functions
    precision: float = 0.0  # macro over predicted functions
    recall_micro: float = 0.0
    precision_micro: float = 0.0
    mean_predicted: float = 0.0  # tests predicted per predicted function
    mean_actual: float = 0.0  # tests that ran per executed function
    unmapped_tests: int = 0
    notes: list[str] = field(default_factory=list)


def score(
    actual: Mapping[str, set[str]], predicted: Mapping[str, set[str]], functions: int
) -> Scores:
    """Macro and micro precision/recall of `predicted` tests per function against `actual`
    (both keyed by function, over the same test ids)."""
    result = Scores(functions=functions, mapped=len(actual.keys() | predicted.keys()))
    recalls, precisions = [], []
    hits = actual_total = predicted_total = 0
    for function in actual.keys() | predicted.keys():
        ran, guessed = actual.get(function, set()), predicted.get(function, set())
        common = len(ran & guessed)
        if ran:
            recalls.append(common / len(ran))
        if guessed:
            precisions.append(common / len(guessed))
        hits += common
        actual_total += len(ran)
        predicted_total += len(guessed)
    result.executed, result.predicted = len(recalls), len(precisions)
    result.recall = round(sum(recalls) / len(recalls), 4) if recalls else 0.0
    result.precision = round(sum(precisions) / len(precisions), 4) if precisions else 0.0
    result.recall_micro = round(hits / actual_total, 4) if actual_total else 0.0
    result.precision_micro = round(hits / predicted_total, 4) if predicted_total else 0.0
    result.mean_predicted = round(predicted_total / len(precisions), 1) if precisions else 0.0
    result.mean_actual = round(actual_total / len(recalls), 1) if recalls else 0.0
    return result


def evaluate(oracle_path: Path) -> dict[str, Any]:
    oracle = load_json(oracle_path)
    root = oracle_path.parent / oracle["root"]
    repo = f"bench-tests-{oracle['package']}"
    settings = load_settings()
    with connect(settings) as client:
        report = index_folder(client, root, repo)
        reader = GraphReader(client)
        spans = Spans.read(reader, repo)
        tests: dict[str, str] = {}  # oracle node id -> our test id
        unmapped_tests = 0
        for nodeid, test in oracle["tests"].items():
            node = spans.find(test["qualified_name"], test["file"], test["line"])
            if node is None or node.test_role != "test":
                unmapped_tests += 1
                continue
            tests[nodeid] = node.symbol.id
        actual: dict[str, set[str]] = {}
        kinds: Counter[str] = Counter()
        for name, function in oracle["functions"].items():
            node = spans.find(name, function["file"], function["line"])
            if node is None or node.test_code:
                kinds["unmapped" if node is None else "test code"] += 1
                continue
            actual[node.symbol.id] = {tests[t] for t in function["tests"] if t in tests}
        for name in oracle.get("never_executed", []):
            if name not in oracle["functions"]:
                kinds["never executed, not listed"] += 1
        predicted: dict[str, set[str]] = {node: set() for node in actual}
        certain: dict[str, set[str]] = {node: set() for node in actual}
        ids = sorted(actual)
        for start in range(0, len(ids), 500):
            for edge in reaching_tests(reader, ids[start : start + 500])[0]:
                predicted[edge.target].add(edge.test.id)
                if edge.resolution in ("exact", "inferred"):
                    certain[edge.target].add(edge.test.id)
        everything = score(actual, predicted, len(oracle["functions"]))
        surest = score(actual, certain, len(oracle["functions"]))
        everything.unmapped_tests = surest.unmapped_tests = unmapped_tests
        everything.notes = [f"{k}: {v}" for k, v in sorted(kinds.items())]
        return {
            "package": f"{oracle['package']}-{oracle['version']}",
            "oracle_tests": len(oracle["tests"]),
            "graph_tests": report.tests,
            "all_tiers": asdict(everything),
            "certain_only": asdict(surest),
            "nodes_reached": report.tests_reached,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="*", help="oracle names such as flask-3.0.3")
    parser.add_argument(
        "--oracle-dir", type=Path, default=RUNTIME_DIR, help="where the oracle outputs lie"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = [evaluate(path) for path in oracle_files(args.packages, args.oracle_dir)]
    if not results:
        raise SystemExit(
            f"no runtime oracle in {RUNTIME_DIR}: run benchmarks.oracles.runtime_tests"
        )
    for result in results:
        every, sure = result["all_tiers"], result["certain_only"]
        print(
            f"{result['package']}: functions {every['functions']} (executed {every['executed']},"
            f" predicted {every['predicted']}); all tiers R {every['recall']:.3f} "
            f"P {every['precision']:.3f}; certain R {sure['recall']:.3f} P {sure['precision']:.3f}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
