"""Our CALLS edges and `path` against the call graph of running code (issue 19).

Ground truth: `benchmarks/oracles/runtime_calls.py` ran each pinned package's own test suite
under a call tracer and wrote the caller -> callee edges between the package's functions and
the call chains of each test (`<name>-<version>.calls.json`, format in
`benchmarks/oracles/README.md`). Here the same source tree (the sdist root, tests included, as
a user would index it) is indexed without embeddings, the oracle's functions are mapped onto
graph nodes by (file, `def` line) with `impact_common.Spans`, and:

* recall: the runtime edges with both ends mapped that a stored CALLS edge joins, with the
  certain tiers alone, certain + possible, and per tier;
* precision per tier against the runtime graph, over the CALLS edges between two mapped
  functions whose *caller ran* during the suite (`<name>.tests.json` from
  `runtime_tests.py` says which ran; without it, the ends of runtime edges): a lower bound,
  a call site the suite never reached counts as wrong; and, where `runtime_tests` left its
  `.coverage` database, over the edges with a call line that ran;
* chains of >= 3 functions (`chains`: from a test's first call into the package;
  `deepest_chains`: the deepest stack under any call): the share for which `CodeGraph.path`
  finds a path from the entry to the deepest function, and the steps of the found paths that
  are possible rather than certain.

Tiers come from `graphrag_code.model.Resolution`: `exact` and `inferred` are certain (its
docstring), every other member, and any tier an edge carries that the enum does not list, is
possible; so a tier added later counts as possible without a change here.

    .venv/bin/python -m benchmarks.oracles.runtime_calls   # the oracle: edges and chains
    .venv/bin/python -m benchmarks.oracles.runtime_tests   # which functions and lines ran
    .venv/bin/python -m benchmarks.accuracy.runtime_trace [httpx-0.28.1 ...] \
        [--out benchmarks/results/runtime_trace.json]     # and .md beside it

Counts the CALLS edges stored in the graph: were dispatch targets derived at query time
instead, `graph_calls` would have to ask for them too.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from benchmarks.common.paths import RESULTS_DIR
from benchmarks.common.runtime_oracle import Spans, index_folder, load_json, oracle_files
from benchmarks.oracles.runtime_env import RUNTIME_DIR, package_functions, runtime_package
from graphrag_code.api import connect
from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import SymbolNotFoundError
from graphrag_code.graph import GraphReader, Neo4jClient, PathStep
from graphrag_code.languages import dispatch_stored
from graphrag_code.model import Resolution
from graphrag_code.settings import load_settings

__all__ = [
    "CERTAIN",
    "POSSIBLE_BY_RULE",
    "ChainFigures",
    "PathOutcome",
    "Ratio",
    "certain_ceiling",
    "chain_figures",
    "classify_misses",
    "classify_wrong",
    "precision",
    "recall",
    "split_tiers",
]

Pair = tuple[str, str]

CERTAIN: frozenset[str] = frozenset({Resolution.EXACT.value, Resolution.INFERRED.value})
# Tiers the issues require to be possible, whatever the runtime does: an override reached
# through its base method (issue 19: "store or derive these as *possible* call targets"), one
# of more values than the limit, and any function that fits a declared callable type (issue
# 15: an edge to each value is `inferred` "only if the set is small and fully known").
POSSIBLE_BY_RULE: frozenset[str] = frozenset(
    {Resolution.DISPATCH.value, Resolution.MANY.value, Resolution.SIGNATURE.value}
)
RESULTS = RESULTS_DIR


# -- pure metrics ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ratio:
    hits: int
    total: int

    @property
    def value(self) -> float | None:
        return round(self.hits / self.total, 4) if self.total else None

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "hits": self.hits, "total": self.total}


def split_tiers(seen: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """(certain, possible) tiers: the library's, plus any tier in `seen` it does not list."""
    known = [r.value for r in Resolution]
    extra = sorted(set(seen) - set(known))
    certain = [t for t in known if t in CERTAIN]
    return certain, [t for t in known if t not in CERTAIN] + extra


def recall(
    runtime: Collection[Pair], graph: Mapping[Pair, Collection[str]], tiers: Collection[str]
) -> Ratio:
    """How many runtime edges a graph edge of one of `tiers` joins."""
    hits = sum(1 for pair in runtime if set(graph.get(pair, ())) & set(tiers))
    return Ratio(hits, len(runtime))


def certain_ceiling(
    runtime: Collection[Pair],
    graph: Mapping[Pair, Collection[str]],
    certain: Collection[str],
    by_rule: Collection[str] = POSSIBLE_BY_RULE,
) -> Ratio:
    """The most that certain recall can reach while the tiers in `by_rule` stay possible: the
    runtime edges other than those that only an edge of such a tier joins. Raising certain
    recall above it means calling such an edge certain, against the rule that makes it
    possible (and, for `dispatch`, against the checkers, which name the base method)."""
    bound = [
        pair
        for pair in runtime
        if not set(graph.get(pair, ())) & set(certain) and set(graph.get(pair, ())) & set(by_rule)
    ]
    return Ratio(len(runtime) - len(bound), len(runtime))


def precision(
    graph: Mapping[Pair, Collection[str]],
    runtime: Collection[Pair],
    tiers: Collection[str],
    ran: Collection[str],
) -> Ratio:
    """How many graph edges of `tiers` whose caller is in `ran` also happened at runtime."""
    runtime_pairs, wanted = set(runtime), set(tiers)
    judged = [pair for pair, found in graph.items() if pair[0] in ran and set(found) & wanted]
    return Ratio(sum(1 for pair in judged if pair in runtime_pairs), len(judged))


def classify_misses(
    runtime: Mapping[Pair, tuple[str, bool]],
    graph: Mapping[Pair, Collection[str]],
    overrides: Mapping[str, Collection[str]],
) -> dict[str, int]:
    """Why the runtime edges (pair -> (oracle `kind`, `explicit`)) no graph edge joins were
    missed, first reason that fits: `dispatch` (the graph calls a method the callee
    overrides), `property` or `dunder` (no call expression names it), `not explicit` (a
    decorator's wrapper or C code made the call), else `other`."""
    reasons = {"dispatch": 0, "property": 0, "dunder": 0, "not explicit": 0, "other": 0}
    for (caller, callee), (kind, explicit) in runtime.items():
        if (caller, callee) in graph:
            continue
        if any((caller, base) in graph for base in overrides.get(callee, ())):
            reasons["dispatch"] += 1
        elif kind in ("property", "dunder"):
            reasons[kind] += 1
        elif not explicit:
            reasons["not explicit"] += 1
        else:
            reasons["other"] += 1
    return reasons


def classify_wrong(
    graph: Mapping[Pair, Collection[str]],
    runtime: Collection[Pair],
    overrides: Mapping[str, Collection[str]],
    ran: Collection[str],
) -> dict[str, int]:
    """Why graph edges whose caller ran were not seen at runtime: `dispatched` (the caller
    reached an override of the callee instead: an abstract or base method), `callee never
    ran`, else `other` (a branch the suite did not take, a `@contextmanager` function, which
    `contextlib` starts, a decorator's wrapper in between)."""
    runtime_pairs = set(runtime)
    dispatched = {(a, base) for a, s in runtime_pairs for base in overrides.get(s, ())}
    reasons = {"dispatched": 0, "callee never ran": 0, "other": 0}
    for pair in graph:
        if pair in runtime_pairs or pair[0] not in ran:
            continue
        if pair in dispatched:
            reasons["dispatched"] += 1
        elif pair[1] not in ran:
            reasons["callee never ran"] += 1
        else:
            reasons["other"] += 1
    return reasons


@dataclass(frozen=True)
class PathOutcome:
    """What `path` gave for one runtime chain (`steps` empty: no path)."""

    runtime_steps: int  # edges of the runtime chain
    tests: int  # tests that produced the chain
    steps: tuple[PathStep, ...] = ()
    covered: bool = False  # every runtime step is a CALLS edge of the graph (any tier)
    ambiguous: bool = False  # `path` refused a name (several nodes share it): not found

    @property
    def found(self) -> bool:
        return bool(self.steps)


@dataclass
class ChainFigures:
    chains: int = 0  # chains with both ends mapped onto graph nodes
    found: Ratio = field(default_factory=lambda: Ratio(0, 0))
    found_by_tests: Ratio = field(default_factory=lambda: Ratio(0, 0))
    found_calls_only: Ratio = field(default_factory=lambda: Ratio(0, 0))  # no DEFINES/IMPORTS
    covered: Ratio = field(default_factory=lambda: Ratio(0, 0))  # every runtime step in graph
    mean_runtime_steps: float | None = None  # over the found ones
    mean_path_steps: float | None = None
    mean_possible_steps: float | None = None  # `not PathStep.certain`
    mean_possible_steps_by_tier: float | None = None  # CALLS steps of a possible tier
    mean_non_call_steps: float | None = None  # DEFINES / IMPORTS steps
    certain_paths: int = 0  # found paths without a possible step
    ambiguous_names: int = 0  # chains `path` refused (a name several nodes share): not found

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("found", "found_by_tests", "found_calls_only", "covered"):
            data[name] = getattr(self, name).as_dict()
        return data


def _mean(values: Sequence[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def chain_figures(outcomes: Sequence[PathOutcome]) -> ChainFigures:
    """Share of chains `path` connects, and what the found paths are made of."""
    found = [o for o in outcomes if o.found]
    later = [o.steps[1:] for o in found]
    possible = [sum(1 for s in steps if not s.certain) for steps in later]
    return ChainFigures(
        chains=len(outcomes),
        found=Ratio(len(found), len(outcomes)),
        found_by_tests=Ratio(sum(o.tests for o in found), sum(o.tests for o in outcomes)),
        found_calls_only=Ratio(
            sum(1 for steps in later if all(s.edge == "CALLS" for s in steps)), len(outcomes)
        ),
        covered=Ratio(sum(1 for o in outcomes if o.covered), len(outcomes)),
        mean_runtime_steps=_mean([o.runtime_steps for o in found]),
        mean_path_steps=_mean([len(steps) for steps in later]),
        mean_possible_steps=_mean(possible),
        mean_possible_steps_by_tier=_mean(
            [
                sum(1 for s in steps if s.edge == "CALLS" and s.resolution not in CERTAIN)
                for steps in later
            ]
        ),
        mean_non_call_steps=_mean([sum(1 for s in steps if s.edge != "CALLS") for steps in later]),
        certain_paths=sum(1 for n in possible if n == 0),
        ambiguous_names=sum(1 for o in outcomes if o.ambiguous),
    )


# -- reading the oracle and the graph ----------------------------------------------------------
@dataclass(frozen=True)
class Mapped:
    """The oracle's functions as graph node ids, and what did not map."""

    ids: dict[str, str]  # oracle qualified name -> node id
    names: dict[str, str]  # node id -> the graph's qualified name
    paths: dict[str, str]  # node id -> its file
    unmapped: list[str]
    # a redefinition's node (`x#2`: a property's setter, an overload's implementation) -> the
    # node of its first definition: the oracle names functions by qualified name alone, so
    # a runtime edge into a setter names the same function as one into the getter
    redefinitions: dict[str, str] = field(default_factory=dict)


def map_functions(spans: Spans, functions: Mapping[str, Mapping[str, Any]]) -> Mapped:
    ids: dict[str, str] = {}
    names: dict[str, str] = {}
    paths: dict[str, str] = {}
    unmapped: list[str] = []
    for name, where in functions.items():
        node = spans.find(name, where["file"], where["line"])
        if node is None:
            unmapped.append(name)
            continue
        ids[name] = node.symbol.id
        names[node.symbol.id] = node.symbol.qualified_name
        paths[node.symbol.id] = node.symbol.location.path
    # the first definition of every mapped name, then the other nodes of those names
    first = {n: spans.by_name[n].symbol.id for n in names.values() if n in spans.by_name}
    redefinitions = {
        node.symbol.id: first[node.symbol.qualified_name]
        for nodes in spans.by_path.values()
        for node in nodes
        if node.symbol.qualified_name in first
        and node.symbol.id != first[node.symbol.qualified_name]
    }
    return Mapped(ids, names, paths, unmapped, redefinitions)


def graph_calls(
    reader: GraphReader, ids: Collection[str], redefinitions: Mapping[str, str] | None = None
) -> tuple[dict[Pair, set[str]], dict[Pair, set[int]]]:
    """(caller, callee) -> tiers, and -> call lines, of the stored CALLS edges between the
    nodes `ids`, and between the `redefinitions` of them, read as their first definitions."""
    fold = dict(redefinitions or {})
    wanted = set(ids) | set(fold)
    edges: dict[Pair, set[str]] = {}
    lines: dict[Pair, set[int]] = {}
    ordered = sorted(wanted)
    for start in range(0, len(ordered), 200):
        for step in reader.neighbours(
            ordered[start : start + 200], types=["CALLS"], direction="out", limit_per_node=100_000
        ):
            if step.id in wanted:
                pair = (fold.get(step.from_id, step.from_id), fold.get(step.id, step.id))
                edges.setdefault(pair, set()).add(step.resolution or "none")
                lines.setdefault(pair, set()).update(step.lines)
    return edges, lines


def executed_lines(coverage_file: Path, root_name: str) -> dict[str, set[int]]:
    """File (relative to the sdist root) -> the lines that ran in any context, from the
    `.coverage` database `runtime_tests` leaves in its work folder (SQLite; lines as
    coverage.py's numbits: bit `i` of byte `j` is line `8 * j + i`)."""
    found: dict[str, set[int]] = {}
    with closing(sqlite3.connect(coverage_file)) as db:
        rows = db.execute("SELECT file.path, numbits FROM line_bits JOIN file ON file.id = file_id")
        for path, numbits in rows:
            relative = str(path).split(f"/{root_name}/", 1)[-1]
            ran = found.setdefault(relative, set())
            ran.update(
                8 * j + i for j, byte in enumerate(numbits) for i in range(8) if byte >> i & 1
            )
    return found


def _functions(calls: Mapping[str, Any], folder: Path) -> tuple[dict[str, Any], set[str], str]:
    """Each function's location, the functions that ran, and where that came from."""
    key = f"{calls['package']}-{calls['version']}"
    tests_path = folder / f"{key}.tests.json"
    if tests_path.is_file():
        tests = load_json(tests_path)
        ran = {n for n, f in tests["functions"].items() if f["tests"]}
        ran |= set(tests.get("executed_outside_tests", []))
        return tests["functions"], ran, "coverage (runtime_tests)"
    entry = runtime_package(f"{calls['package']}=={calls['version']}")
    root = folder / calls["root"]
    found = package_functions(root, root / calls["import_root"], entry.top_level or entry.name)
    functions = {n: {"file": i.file, "line": i.line} for n, i in found.items()}
    ran = {e["caller"] for e in calls["edges"]} | {e["callee"] for e in calls["edges"]}
    return functions, ran, "ends of runtime edges (no tests.json)"


# -- one package -------------------------------------------------------------------------------
def _path(graph: CodeGraph, source: str, target: str, repo: str) -> tuple[PathStep, ...] | None:
    """`path`'s steps, or None when a name does not pick one node (an overload's variants
    share their qualified name: `click.decorators.command`)."""
    try:
        return tuple(graph.path(source, target, repo=repo).steps)
    except SymbolNotFoundError:  # AmbiguousSymbolError included
        return None


def _chains(
    graph: CodeGraph,
    chains: Sequence[Mapping[str, Any]],
    mapped: Mapped,
    edges: Mapping[Pair, set[str]],
    repo: str,
) -> dict[str, Any]:
    outcomes: list[PathOutcome] = []
    missed: list[list[str]] = []
    unmapped = collapsed = 0
    for chain in chains:
        path = chain["path"]
        ids = [mapped.ids.get(name) for name in path]
        source, target = ids[0], ids[-1]
        if source is None or target is None:
            unmapped += 1
            continue
        if source == target:
            collapsed += 1
            continue
        steps = _path(graph, mapped.names[source], mapped.names[target], repo)
        covered = all(a is not None and b is not None and (a, b) in edges for a, b in pairwise(ids))
        outcome = PathOutcome(
            len(path) - 1, int(chain["tests"]), steps or (), covered, ambiguous=steps is None
        )
        outcomes.append(outcome)
        if not outcome.found:
            missed.append([path[0], path[-1], *(["(ambiguous name)"] * outcome.ambiguous)])
    return {
        **chain_figures(outcomes).as_dict(),
        "runtime_chains": len(chains),
        "unmapped_ends": unmapped,
        "same_node": collapsed,
        "missed": missed[:30],
    }


def _precisions(
    graph: Mapping[Pair, set[str]],
    runtime: set[Pair],
    tiers: tuple[list[str], list[str]],
    overrides: Mapping[str, Collection[str]],
    ran: set[str],
) -> dict[str, Any]:
    certain, possible = tiers
    return {
        "certain": precision(graph, runtime, certain, ran).as_dict(),
        "possible": precision(graph, runtime, possible, ran).as_dict(),
        "by_tier": {t: precision(graph, runtime, [t], ran).as_dict() for t in certain + possible},
        "certain_wrong_because": classify_wrong(
            {p: t for p, t in graph.items() if t & set(certain)}, runtime, overrides, ran
        ),
    }


def evaluate(calls_path: Path, client: Neo4jClient) -> dict[str, Any]:
    calls = load_json(calls_path)
    folder = calls_path.parent
    key = f"{calls['package']}-{calls['version']}"
    repo = f"bench-trace-{calls['package']}"
    report = index_folder(client, folder / calls["root"], repo)
    reader = GraphReader(client)
    spans = Spans.read(reader, repo)
    functions, ran_names, ran_source = _functions(calls, folder)
    mapped = map_functions(spans, functions)

    runtime: set[Pair] = set()
    how: dict[Pair, tuple[str, bool]] = {}  # the first oracle edge's kind and `explicit`
    by_kind: dict[str, set[Pair]] = {}
    unmapped_edges = 0
    for edge in calls["edges"]:
        a, b = mapped.ids.get(edge["caller"]), mapped.ids.get(edge["callee"])
        if a is None or b is None:
            unmapped_edges += 1
            continue
        runtime.add((a, b))
        how.setdefault((a, b), (edge["kind"], bool(edge["explicit"])))
        by_kind.setdefault(edge["kind"], set()).add((a, b))
        if edge["explicit"]:
            by_kind.setdefault("explicit", set()).add((a, b))

    edges, call_lines = graph_calls(reader, set(mapped.ids.values()), mapped.redefinitions)
    callees = sorted({callee for _, callee in runtime})
    overrides = {
        m: [s.id for s in reader.overridden_methods(m, stored=dispatch_stored())] for m in callees
    }
    certain, possible = split_tiers(t for found in edges.values() for t in found)
    everything = certain + possible
    ran = {mapped.ids[n] for n in ran_names if n in mapped.ids}
    coverage_file = folder / "work" / f"{key}.tests" / ".coverage"
    line_ran: dict[str, Any] | None = None
    if coverage_file.is_file():
        lines_run = executed_lines(coverage_file, calls["root"])
        reached = {
            pair: tiers
            for pair, tiers in edges.items()
            if call_lines.get(pair, set()) & lines_run.get(mapped.paths[pair[0]], set())
        }
        line_ran = _precisions(reached, runtime, (certain, possible), overrides, ran)
    with CodeGraph(load_settings(embedder="hashing"), client=client) as graph:
        chains = _chains(graph, calls["chains"], mapped, edges, repo)
        deepest = _chains(graph, calls["deepest_chains"], mapped, edges, repo)
    return {
        "package": key,
        "sizes": {
            "functions": len(functions),
            "mapped_functions": len(mapped.ids),
            "runtime_edges": len(calls["edges"]),
            "mapped_runtime_edges": len(runtime),
            "unmapped_runtime_edges": unmapped_edges,
            "graph_edges_between_functions": len(edges),
            "chains": len(calls["chains"]),
            "deepest_chains": len(calls["deepest_chains"]),
            "ran": len(ran),
            "ran_from": ran_source,
        },
        "tiers": {"certain": certain, "possible": possible},
        "recall": {
            "certain": recall(runtime, edges, certain).as_dict(),
            "certain_and_possible": recall(runtime, edges, everything).as_dict(),
            "certain_ceiling": certain_ceiling(runtime, edges, certain).as_dict(),
            "by_tier": {t: recall(runtime, edges, [t]).as_dict() for t in everything},
            "missed_because": classify_misses(how, edges, overrides),
            "by_runtime_kind": {
                kind: {
                    "certain": recall(pairs, edges, certain).as_dict(),
                    "certain_and_possible": recall(pairs, edges, everything).as_dict(),
                }
                for kind, pairs in sorted(by_kind.items())
            },
        },
        "precision_caller_ran": _precisions(edges, runtime, (certain, possible), overrides, ran),
        "precision_call_line_ran": line_ran,
        "chains": chains,
        "deepest_chains": deepest,
        "unmapped_functions": mapped.unmapped[:20],
        "graph_calls_by_tier": {
            key.split("/", 1)[1]: n
            for key, n in sorted(report.edges.items())
            if key.startswith("CALLS/")
        },
        "index_seconds": round(report.total_seconds, 1),
    }


# -- output ------------------------------------------------------------------------------------
def _cell(ratio: Mapping[str, Any]) -> str:
    value = ratio["value"]
    return "–" if value is None else f"{value:.3f} ({ratio['hits']}/{ratio['total']})"


def _short(ratio: Mapping[str, Any]) -> str:
    value = ratio["value"]
    return "–" if value is None else f"{value:.3f}"


def markdown(results: Sequence[Mapping[str, Any]]) -> str:
    """The tables of BENCHMARKS.md §13."""
    tiers = list(dict.fromkeys(t for r in results for t in r["recall"]["by_tier"]))
    lines = [
        "| package | runtime edges (mapped) | recall certain | certain ceiling | "
        "recall certain + possible | " + " | ".join(f"recall `{t}`" for t in tiers) + " |",
        "|---|---|---|---|---|" + "---|" * len(tiers),
    ]
    for r in results:
        s, rec = r["sizes"], r["recall"]
        ceiling = rec.get("certain_ceiling")  # results written before stop 43 lack it
        lines.append(
            f"| {r['package']} | {s['runtime_edges']} ({s['mapped_runtime_edges']}) | "
            f"{_cell(rec['certain'])} | {_cell(ceiling) if ceiling else '–'} | "
            f"{_cell(rec['certain_and_possible'])} | "
            + " | ".join(_cell(rec["by_tier"][t]) if t in rec["by_tier"] else "–" for t in tiers)
            + " |"
        )
    kinds = ("explicit", "call", "init", "property", "dunder")
    lines += [
        "",
        "Recall (certain / certain + possible) by the oracle's kind of runtime edge, and why "
        "the edges no CALLS edge joins were missed:",
        "",
        "| package | " + " | ".join(f"`{k}`" for k in kinds) + " | missed: dispatch / "
        "property / dunder / not explicit / other |",
        "|---|" + "---|" * (len(kinds) + 1),
    ]
    for r in results:
        by_kind = r["recall"]["by_runtime_kind"]
        cells = [
            "–"
            if k not in by_kind
            else f"{_short(by_kind[k]['certain'])} / {_short(by_kind[k]['certain_and_possible'])}"
            f" of {by_kind[k]['certain']['total']}"
            for k in kinds
        ]
        why = r["recall"]["missed_because"]
        lines.append(
            f"| {r['package']} | " + " | ".join(cells) + " | "
            f"{why['dispatch']} / {why['property']} / {why['dunder']} / "
            f"{why['not explicit']} / {why['other']} |"
        )
    for key, title in (
        ("precision_caller_ran", "whose caller ran during the suite"),
        ("precision_call_line_ran", "with a call line that ran (coverage.py)"),
    ):
        lines += [
            "",
            "Precision against the runtime graph, over the CALLS edges between two package "
            f"functions {title}:",
            "",
            "| package | certain | possible | "
            + " | ".join(f"`{t}`" for t in tiers)
            + " | certain, not seen: dispatched / callee never ran / other |",
            "|---|---|---|" + "---|" * (len(tiers) + 1),
        ]
        for r in results:
            p = r[key]
            if p is None:
                lines.append(f"| {r['package']} | no coverage data |" + " |" * (len(tiers) + 2))
                continue
            wrong = p["certain_wrong_because"]
            lines.append(
                f"| {r['package']} | {_cell(p['certain'])} | {_cell(p['possible'])} | "
                + " | ".join(_cell(p["by_tier"][t]) if t in p["by_tier"] else "–" for t in tiers)
                + f" | {wrong['dispatched']} / {wrong['callee never ran']} / {wrong['other']} |"
            )
    for kind, title in (
        ("chains", "from a test's first call into the package"),
        ("deepest_chains", "the deepest stack under any call into the package"),
    ):
        lines += [
            "",
            f"`{kind}` (>= 3 functions, {title}): does `CodeGraph.path` join the outermost "
            "function to the deepest one?",
            "",
            "| package | chains (measured) | `path` finds one (refused: ambiguous name) | "
            "weighted by tests | found, CALLS steps only | every runtime step a CALLS edge | "
            "mean steps runtime / path | mean possible steps | found paths all certain |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in results:
            c = r[kind]
            lines.append(
                f"| {r['package']} | {c['runtime_chains']} ({c['chains']}) | "
                f"{_cell(c['found'])} ({c['ambiguous_names']}) | {_cell(c['found_by_tests'])} | "
                f"{_cell(c['found_calls_only'])} | "
                f"{_cell(c['covered'])} | {c['mean_runtime_steps']} / {c['mean_path_steps']} | "
                f"{c['mean_possible_steps']} | {c['certain_paths']} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="*", help="oracle names such as httpx-0.28.1")
    parser.add_argument("--oracle-dir", type=Path, default=RUNTIME_DIR)
    parser.add_argument(
        "--out", type=Path, default=RESULTS / "runtime_trace.json", help="JSON; .md beside it"
    )
    args = parser.parse_args()
    paths = oracle_files(args.packages, args.oracle_dir, suffix=".calls.json")
    if not paths:
        raise SystemExit(
            f"no calls oracle in {args.oracle_dir}: run benchmarks.oracles.runtime_calls"
        )
    with connect(load_settings()) as client:
        results = [evaluate(path, client) for path in paths]
    table = markdown(results)
    print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
