"""Imported coverage on a real suite (issue 54): how long the import takes, and how many tests
a one-line body edit of each function selects with coverage and with the static prediction.

Records the package's own suite once under coverage.py with per-test contexts (the contexts
`pytest --cov --cov-context=test` writes: `runtime_env.run_suite` in `coverage` mode),
indexes the sdist under its own repository name, imports the data file with
`graphrag_code.impact.import_coverage` (timed), then for every function, method or class a
test ran: a body edit keeps the coverage fresh (its content before the edit is the one
recorded), so `diff` lists the tests that ran it first (`ran`; for code that also ran
outside every test, the static prediction), then the tests the reach graph predicts
(`static`, what `diff` listed before issue 54). Reported: the median and mean of each, as
counts and as shares of the suite (the graph's tests: a parametrised test is one).

    .venv/bin/python -m benchmarks.impact.coverage_select click==8.1.7 [--json out.json]

Needs Neo4j (NEO4J_URI, else the managed local server) and the runtime oracle's venv of the
package (`benchmarks.oracles.runtime_tests` builds it on first use).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common.runtime_oracle import index_folder
from benchmarks.oracles.runtime_env import RUNTIME_DIR, Suite, parse_specs, prepare, run_suite
from graphrag_code.api import connect
from graphrag_code.graph import GraphReader, Neo4jClient
from graphrag_code.impact import CoverageImport, import_coverage
from graphrag_code.impact.tests import ran_tests, reaching_tests

__all__ = ["Recorded", "measure", "recorded_graph"]


def _stats(sizes: list[int], suite: int) -> dict[str, float]:
    if not sizes:
        return {"median": 0.0, "mean": 0.0, "median_share": 0.0}
    median = float(statistics.median(sizes))
    return {
        "median": median,
        "mean": round(statistics.fmean(sizes), 1),
        "median_share": round(median / suite, 4) if suite else 0.0,
    }


@dataclass(frozen=True)
class Recorded:
    suite: Suite
    client: Neo4jClient
    repo: str
    done: CoverageImport
    runs: int  # pytest node ids the suite ran
    record_s: float


def recorded_graph(spec: str) -> Recorded:
    """One package's suite run under coverage with per-test contexts, its sdist indexed as
    `cov54-<name>-<version>` and the coverage imported."""
    (entry,) = parse_specs([spec])
    suite = prepare(entry)
    work = RUNTIME_DIR / "work" / f"{suite.root.name}.coverage54"
    started = time.perf_counter()
    run = run_suite(suite, "coverage", work)
    recorded_s = time.perf_counter() - started
    repo = f"cov54-{suite.root.name}"
    client = connect()
    index_folder(client, suite.root, repo)
    done = import_coverage(client, repo, work / ".coverage", root=str(suite.root), commit=None)
    return Recorded(suite, client, repo, done, len(run.report["tests"]), round(recorded_s, 1))


def measure(spec: str, *, limit: int | None = None) -> dict[str, Any]:
    """Record, index, import and compare for one package (`click==8.1.7`)."""
    recorded = recorded_graph(spec)
    suite, client, repo, done = recorded.suite, recorded.client, recorded.repo, recorded.done
    reader = GraphReader(client)
    covered = [
        row["id"]
        for row in client.read(
            "MATCH (n:Symbol)<-[:RAN]-() WHERE n.repo = $repo RETURN DISTINCT n.id AS id "
            "ORDER BY id",
            {"repo": repo},
        )
    ][:limit]
    ran_sizes: list[int] = []
    static_sizes: list[int] = []
    union_sizes: list[int] = []
    ran_not_static = 0
    query_s: list[float] = []
    for node in covered:
        begun = time.perf_counter()
        ran, stale = ran_tests(reader, [node], {})
        reached, _cut = reaching_tests(reader, [node])
        query_s.append(time.perf_counter() - begun)
        static_ids = {e.test.id for e in reached}
        # what trusting the coverage selects: the tests that ran it, or for code the coverage
        # does not speak for alone (it ran outside every test too), the static prediction
        ran_ids = static_ids if stale else {e.test.id for e in ran}
        ran_sizes.append(len(ran_ids))
        static_sizes.append(len(static_ids))
        union_sizes.append(len(ran_ids | static_ids))
        ran_not_static += bool(ran_ids - static_ids)
    # the graph's tests: a parametrised test is one (the unit coverage selects in too)
    tests = client.read(
        "MATCH (t:Code) WHERE t.repo = $repo AND t.test_role = 'test' RETURN count(t) AS n",
        {"repo": repo},
    )[0]["n"]
    return {
        "package": suite.root.name,
        "suite_runs": recorded.runs,  # pytest node ids, parameters apart
        "suite_tests": tests,
        "record_s": recorded.record_s,
        "import": {
            "seconds": done.seconds,
            "contexts": done.contexts,
            "tests": done.tests,
            "edges": done.edges,
            "files": f"{done.files_matched}/{done.files_measured}",
            "unknown_tests": len(done.unknown_tests),
            "outside": done.outside,
        },
        "functions": len(covered),
        "ran": _stats(ran_sizes, tests),
        "static": _stats(static_sizes, tests),
        "listed": _stats(union_sizes, tests),
        "static_misses_a_test_that_ran": round(ran_not_static / len(covered), 3) if covered else 0,
        "query_s_median": round(statistics.median(query_s), 4) if query_s else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="+", help="runtime oracle specs: click==8.1.7")
    parser.add_argument("--limit", type=int, help="functions compared at most (a quick run)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = [measure(spec, limit=args.limit) for spec in args.packages]
    for r in results:
        print(
            f"{r['package']}: {r['suite_tests']} tests ({r['suite_runs']} runs), recorded in "
            f"{r['record_s']} s; import "
            f"{r['import']['seconds']} s ({r['import']['edges']} RAN edges from "
            f"{r['import']['tests']} tests); {r['functions']} functions ran: tests selected "
            f"per one-line edit, median ran {r['ran']['median']:.0f} "
            f"({r['ran']['median_share']:.1%}) vs static {r['static']['median']:.0f} "
            f"({r['static']['median_share']:.1%}); static misses a test that ran for "
            f"{r['static_misses_a_test_that_ran']:.1%}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
