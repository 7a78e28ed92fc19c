"""The graph's tests against the ids pytest collects (stop 65): how many of a suite's test
ids name no test of the graph, and how many graph tests pytest does not collect.

The graph side is offline (`ingest.offline.link_repository` and the tests stage, no Neo4j):
each test as `diff` names it to the runner, once per case (`test_cases`: a test method
classes inherit runs once per class that has it). The pytest side is `pytest --collect-only`
in the package's runtime oracle venv (`benchmarks.oracles.runtime_env`), with its test paths
and deselections, parameters folded (a parametrised test is one graph test).

    .venv/bin/python -m benchmarks.impact.collected_tests huey==2.5.2 --show 10

`--ids-only` prints counts alone (held-out packages: no test names).
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
from pathlib import Path
from typing import Any

from benchmarks.oracles.runtime_env import Suite, parse_specs, prepare
from benchmarks.oracles.runtime_services import redis_server
from graphrag_code.impact.tests import runner_id
from graphrag_code.ingest import tests_stage
from graphrag_code.ingest.languages import LanguageRun
from graphrag_code.ingest.offline import link_repository

__all__ = ["graph_tests", "pytest_ids"]


class _NoWrites:
    """Stands in for the graph writer and the write-behind queue: nothing is written."""

    def submit(self, *args: object, **kwargs: object) -> None:
        return None

    def __getattr__(self, name: str) -> None:
        return None


def graph_tests(root: Path) -> set[str]:
    """The runner ids of the tests the graph of `root` has, one per case."""
    linked = link_repository(root, repo="collected")
    languages = LanguageRun.of(None)
    languages.prepare(linked.index, {})
    nothing: Any = _NoWrites()
    book, _ = tests_stage.update_tests(
        parsed=linked.parsed, links=linked.links, relink=set(linked.links),
        fresh=set(linked.parsed), ids=linked.ids, langs=languages, writer=nothing,
        writes=nothing, previous=None, all_nodes=[],
    )  # fmt: skip
    names = tests_stage._Names(linked.parsed, linked.ids)
    found: set[str] = set()
    for node, role in book.roles.items():
        if role[1] != "test":
            continue
        path = names.path_of[node]
        own = runner_id(path, names.qualified[node], linked.parsed[path].module)
        found.update(role[4] or (own,))
    return found


def pytest_ids(suite: Suite, work: Path) -> tuple[set[str], int]:
    """The test ids pytest collects from the suite (parameters folded), and its items."""
    command = [
        str(suite.python), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
        f"--rootdir={suite.root}", "-W", "ignore::pytest.PytestConfigWarning",
        *(f"--deselect={d.nodeid}" for d in suite.deselect), *suite.pytest_args,
    ]  # fmt: skip
    with redis_server(work) if suite.redis else contextlib.nullcontext():
        out = subprocess.run(
            command, cwd=suite.root, capture_output=True, text=True, timeout=600, check=False
        ).stdout
    items = [line for line in out.splitlines() if "::" in line and " " not in line]
    return {item.split("[", 1)[0] for item in items}, len(items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="+", help="runtime oracle specs: huey==2.5.2")
    parser.add_argument("--show", type=int, default=0, help="ids to list of each difference")
    parser.add_argument("--ids-only", action="store_true", help="counts only (held out)")
    args = parser.parse_args()
    for entry in parse_specs(args.packages):
        suite = prepare(entry)
        graph = graph_tests(suite.root)
        collected, items = pytest_ids(suite, Path("/tmp") / f"collected-{suite.root.name}")
        missing, extra = sorted(collected - graph), sorted(graph - collected)
        print(
            f"{suite.root.name}: graph tests {len(graph)}, pytest items {items} "
            f"({len(collected)} ids, parameters folded); pytest ids no graph test names "
            f"{len(missing)}; graph tests pytest does not collect {len(extra)}"
        )
        if not args.ids_only:
            for test in missing[: args.show]:
                print("  missing", test)
            for test in extra[: args.show]:
                print("  extra  ", test)


if __name__ == "__main__":
    main()
