"""Predicted tests per function, offline, and ways of cutting them (issue 16).

`benchmarks.impact.impact_tests` indexes each package into Neo4j and asks the product which tests
reach each function. This script builds the same reach graph in memory (the tests stage's
own functions, nothing written) and walks it back the same way (`conventions.exercising`), so
a variant of the prediction can be scored in seconds against the coverage oracle
(`benchmarks/oracles/runtime_tests.py`). The `all tiers` row matches `impact_tests` exactly.

Variants (none is the product's; each is a question about what a cut would buy):
- `certain first`: a function's tests through certain chains (exact, inferred) where it has
  any, else every test that reaches it;
- `instantiated`: a test follows a possible edge into a method (an override, a protocol
  method, a name match) only once its reach has constructed that method's class or a
  subclass (rapid type analysis, per test);
- `certain or its test file`: the tests through certain chains, and those in the test file
  named after the function's module (`tests/test_utils.py` for `utils.py`).

Beside them, two bounds of the all-tiers prediction: how many functions it predicts tests for
that no test ran (each scores precision 0), and its macro precision over the functions that
did run.

    .venv/bin/python -m benchmarks.impact.impact_tests_offline [flask-3.0.3 ...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks.common.runtime_oracle import load_json, oracle_files
from benchmarks.impact.impact_tests import score
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.conventions import Exercised, exercising
from graphrag_code.ingest import tests_stage
from graphrag_code.ingest.languages import LanguageRun
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.ingest.state import unpacked
from graphrag_code.model import Resolution, SymbolKind

# reach tiers: each a `Resolution.rank`
INFERRED, NAME = Resolution.INFERRED.rank, Resolution.NAME.rank

Graph = dict[str, dict[str, tuple[int, str | None]]]  # source -> target -> (tier, via)
Callers = dict[str, list[tuple[str, int, str | None]]]  # target -> (source, tier, via)
VARIANTS = ("all tiers", "certain first", "instantiated", "certain or its test file")


class _NoWrites:
    """Stands in for the graph writer and the write-behind queue: nothing is written."""

    def submit(self, *args: object, **kwargs: object) -> None:
        return None

    def __getattr__(self, name: str) -> None:
        return None


class _Run:
    """One package linked, its reach graph, and the oracle mapped onto its nodes."""

    def __init__(self, oracle_path: Path) -> None:
        self.oracle = load_json(oracle_path)
        self.linked: LinkedRepository = link_repository(
            oracle_path.parent / self.oracle["root"], repo="offline"
        )
        languages = LanguageRun.of(None)
        languages.prepare(self.linked.index, {})
        nothing: Any = _NoWrites()
        book, _ = tests_stage.update_tests(
            parsed=self.linked.parsed, links=self.linked.links, relink=set(self.linked.links),
            fresh=set(self.linked.parsed), ids=self.linked.ids, langs=languages, writer=nothing,
            writes=nothing, previous=None, all_nodes=[],
        )  # fmt: skip
        self.names = tests_stage._Names(self.linked.parsed, self.linked.ids)
        adjacency = {path: unpacked(blob) for path, blob in book.adjacency.items()}
        self.graph: Graph = tests_stage._reach_graph(adjacency, book.seeds)
        self.tests = set(book.seeds)
        inherits = [edge for blob in book.facts.values() for edge in unpacked(blob)[1]]
        self.tree = tests_stage._class_tree(self.linked.parsed, inherits, self.names)
        by_nodeid = {
            nodeid: node
            for nodeid, test in self.oracle["tests"].items()
            if (node := self.names.find(test["file"], test["qualified_name"])) in self.tests
        }
        self.actual: dict[str, set[str]] = {}
        for name, function in self.oracle["functions"].items():
            node = self.names.find(function["file"], name)
            if node is None or book.roles.get(node, (False, None, ()))[0]:
                continue  # unmapped, or test code
            self.actual[node] = {by_nodeid[t] for t in function["tests"] if t in by_nodeid}

    def scored(self, predicted: Mapping[str, set[str]]) -> dict[str, Any]:
        wanted = {node: set(predicted.get(node, set())) for node in self.actual}
        return asdict(score(self.actual, wanted, len(self.oracle["functions"])))

    def callers(self) -> Callers:
        """The reach graph read backwards."""
        callers: Callers = defaultdict(list)
        for source, out in self.graph.items():
            for target, (tier, via) in out.items():
                callers[target].append((source, tier, via))
        return callers

    def constructs(self, node: str) -> str | None:
        """The class that running `node` constructs: a class, or the owner of its
        `__init__`/`__new__`."""
        name = self.names.qualified.get(node, "")
        symbol = self.linked.index.symbols.get(name)
        if symbol is not None and symbol.kind == SymbolKind.CLASS:
            return name
        owner, _, short = name.rpartition(".")
        return owner if short in ("__init__", "__new__") else None

    def method_of(self, node: str) -> str | None:
        """The class `node` is a method of, if it is one."""
        symbols = self.linked.index.symbols
        symbol = symbols.get(self.names.qualified.get(node, ""))
        if symbol is None or symbol.kind != SymbolKind.METHOD:
            return None
        parent = symbols.get(symbol.parent)
        return symbol.parent if parent is not None and parent.kind == SymbolKind.CLASS else None

    # -- variants ------------------------------------------------------------------------------
    def exercised(self) -> dict[str, dict[str, Exercised]]:
        """Each function's tests as the product walks them back: test -> `Exercised`."""
        callers = self.callers()
        return {n: exercising(n, callers, self.tests) for n in self.actual}

    def instantiated(self) -> dict[str, set[str]]:
        """Each test's reach, possible edges into a method followed only once the method's
        class (or a subclass) has been constructed in that reach."""
        symbols = self.linked.index.symbols
        qualified = self.names.qualified

        def owner_class(node: str) -> str | None:
            symbol = symbols.get(qualified.get(node, ""))
            return None if symbol is None or symbol.name == "__init__" else self.method_of(node)

        predicted: dict[str, set[str]] = defaultdict(set)
        for test in self.tests:
            classes: set[str] = set()
            reached = {test}
            waiting: dict[str, list[str]] = defaultdict(list)
            frontier = [test]
            while frontier:
                step: list[str] = []
                for node in frontier:
                    cls = self.constructs(node)
                    for ancestor in self.tree.ancestors(cls) if cls else ():
                        if ancestor not in classes:
                            classes.add(ancestor)
                            for held in waiting.pop(ancestor, []):
                                if held not in reached:
                                    reached.add(held)
                                    step.append(held)
                    for target, (tier, _via) in self.graph.get(node, {}).items():
                        if target in reached:
                            continue
                        owner = owner_class(target)
                        if tier == NAME and owner is not None and owner not in classes:
                            waiting[owner].append(target)
                            continue
                        reached.add(target)
                        step.append(target)
                frontier = step
            for node in reached - {test}:
                predicted[node].add(test)
        return predicted


def _file_stem(path: str) -> str:
    """`tests/test_utils.py` and `src/pkg/_utils.py` -> `utils`."""
    name = path.rsplit("/", 1)[-1].removesuffix(".py")
    return re.sub(r"^test_|_test$|^_", "", name)


def _bounds(run: _Run, predicted: Mapping[str, set[str]]) -> dict[str, Any]:
    guessed = [node for node in run.actual if predicted.get(node)]
    ran = [node for node in guessed if run.actual[node]]
    right = [len(predicted[node] & run.actual[node]) / len(predicted[node]) for node in ran]
    return {
        "predicted_functions": len(guessed),
        "predicted_never_ran": len(guessed) - len(ran),
        "precision_where_ran": round(sum(right) / len(right), 4) if right else None,
    }


def evaluate(oracle_path: Path) -> dict[str, Any]:
    run = _Run(oracle_path)
    exercised = run.exercised()
    path_of = run.names.path_of

    def certain(found: dict[str, Any]) -> set[str]:
        return {test for test, hit in found.items() if hit.tier >= INFERRED}

    def own_file(node: str, found: dict[str, Any]) -> set[str]:
        stem = _file_stem(path_of.get(node, ""))
        return {test for test in found if _file_stem(path_of.get(test, "")) == stem}

    everything = {node: set(found) for node, found in exercised.items()}
    return {
        "package": f"{run.oracle['package']}-{run.oracle['version']}",
        "all tiers": run.scored(everything),
        "certain first": run.scored(
            {node: certain(found) or set(found) for node, found in exercised.items()}
        ),
        "instantiated": run.scored(run.instantiated()),
        "certain or its test file": run.scored(
            {node: certain(found) | own_file(node, found) for node, found in exercised.items()}
        ),
        "all tiers bounds": _bounds(run, everything),
    }


def evaluate_packages(
    description: str | None, evaluate: Callable[[Path], dict[str, Any]]
) -> tuple[list[dict[str, Any]], Path | None]:
    """The command line of the scripts that score runtime oracles (package names, `--json`):
    `evaluate` of each oracle asked for (all by default), and where to write the results."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("packages", nargs="*", help="oracle names such as flask-3.0.3")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = [evaluate(path) for path in oracle_files(args.packages, RUNTIME_DIR)]
    if not results:
        raise SystemExit(
            f"no runtime oracle in {RUNTIME_DIR}: run benchmarks.oracles.runtime_tests"
        )
    out: Path | None = args.json
    return results, out


def main() -> None:
    results, out = evaluate_packages(__doc__, evaluate)
    print("| package | variant | R | P | tests predicted per function (ran) |")
    print("|---|---|---:|---:|---:|")
    for result in results:
        for variant in VARIANTS:
            s = result[variant]
            print(
                f"| {result['package']} | {variant} | {s['recall']:.3f} | {s['precision']:.3f} |"
                f" {s['mean_predicted']} ({s['mean_actual']}) |"
            )
    print("\n| package | functions predicted | of them never ran | all-tiers P where they ran |")
    print("|---|---:|---:|---:|")
    for result in results:
        b = result["all tiers bounds"]
        print(
            f"| {result['package']} | {b['predicted_functions']} | {b['predicted_never_ran']} |"
            f" {b['precision_where_ran']:.3f} |"
        )
    if out:
        out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
