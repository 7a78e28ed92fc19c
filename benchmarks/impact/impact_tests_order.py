"""Does the order of the tests to run put the tests that ran first? (issue 16)

`diff` and `tests-for` rank the tests that reach a function by `run_order`
(`graphrag_code/impact/tests.py`). This script scores that order against the coverage oracle
(`benchmarks/oracles/runtime_tests.py`) on the reach graph `benchmarks.impact.impact_tests_offline`
builds, for the product's order and for the order it replaced (stop 47: distance before
certainty). Per package, over the functions whose predicted tests include some that ran and
some that did not:
- the AUC within a function: the chance that a test that ran comes before one that did not
  (tests the order cannot tell apart count half), averaged over the functions;
- the top 10: the share of the tests that ran (at most 10) found among the first ten.

    .venv/bin/python -m benchmarks.impact.impact_tests_order [--json out.json]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.impact.impact_tests_learned import auc
from benchmarks.impact.impact_tests_offline import _Run, evaluate_packages
from graphrag_code.conventions import Exercised
from graphrag_code.impact.tests import affinity, run_order
from graphrag_code.model import Resolution

# reach tiers: each a `Resolution.rank`
INFERRED = Resolution.INFERRED.rank

Order = Callable[[int, bool, int], tuple[object, ...]]  # (affinity, certain, distance) -> key
TOP = 10


def _product(affinity: int, certain: bool, distance: int) -> tuple[object, ...]:
    """`run_order` without the name `diff` breaks its ties by: those count half here."""
    return run_order(
        changed=False, affinity=affinity, certain=certain, distance=distance, reaches=1
    )


def _before_stop_47(affinity: int, certain: bool, distance: int) -> tuple[object, ...]:
    return (-affinity, distance, not certain)


ORDERS: dict[str, Order] = {"before stop 47": _before_stop_47, "product": _product}


def _scores(
    run: _Run, node: str, found: Mapping[str, Exercised], order: Order
) -> tuple[float | None, float]:
    """One function's AUC (None when its tests all ran or none did) and top-10 share."""
    names, paths = run.names.qualified, run.names.path_of
    subject, subject_path = names.get(node, ""), paths.get(node)
    tests = sorted(found)

    def key(test: str) -> tuple[object, ...]:
        named = affinity(names.get(test, ""), paths.get(test, ""), subject, subject_path)
        return order(named, found[test].tier >= INFERRED, found[test].distance)

    keys = [key(test) for test in tests]
    rank = {key: place for place, key in enumerate(sorted(set(keys)))}
    score = np.array([-rank[key] for key in keys], dtype=np.float64)
    ran = np.array([test in run.actual[node] for test in tests], dtype=np.float64)
    first = sorted(range(len(tests)), key=lambda i: (keys[i], tests[i]))[:TOP]
    top = sum(ran[i] for i in first) / min(TOP, ran.sum()) if ran.any() else 0.0
    return auc(ran, score), float(top)


def evaluate(oracle_path: Path) -> dict[str, Any]:
    run = _Run(oracle_path)
    exercised = run.exercised()
    result: dict[str, Any] = {"package": f"{run.oracle['package']}-{run.oracle['version']}"}
    for name, order in ORDERS.items():
        aucs, tops = [], []
        for node, found in exercised.items():
            if not found or not (run.actual[node] & found.keys()):
                continue
            auc, top = _scores(run, node, found, order)
            tops.append(top)
            if auc is not None:
                aucs.append(auc)
        result[name] = {
            "functions": len(tops),
            "auc_within_function": round(float(np.mean(aucs)), 4),
            "top_10": round(float(np.mean(tops)), 4),
        }
    return result


def main() -> None:
    results, out = evaluate_packages(__doc__, evaluate)
    print("| package | order | functions | AUC within a function | ran tests in the top 10 |")
    print("|---|---|---:|---:|---:|")
    for result in results:
        for name in ORDERS:
            s = result[name]
            print(
                f"| {result['package']} | {name} | {s['functions']} |"
                f" {s['auc_within_function']:.3f} | {s['top_10']:.3f} |"
            )
    if out:
        out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
