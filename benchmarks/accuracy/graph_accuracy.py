"""Accuracy of our IMPORTS and CALLS edges against independent oracles (grimp and jedi).

The oracles (benchmarks/oracles) never import graphrag_code; this script compares their JSON
with the graph our linker builds from the same sdist sources.

- IMPORTS, module level, against grimp's direct imports (re-export edges, which grimp does not
  model, and self-imports are left out; TYPE_CHECKING imports are included by both).
- CALLS, at caller-file level (caller module, callee qualified name), against jedi's `goto` on
  every call site. A jedi class target counts as the `__init__` the call runs (the class itself
  when no `__init__` is found), which is how our edges point.
  Precision and recall are reported for exact + inferred edges (the "certain" tiers), and
  separately for each tier.
- A third judge where neither jedi nor mypy confirms a pair: the call graph of the package's
  own test suite run under a tracer (`benchmarks.oracles.runtime_calls`, when its output is
  in the cache): a pair that ran is right whatever the checkers say. Checkers do not model
  what a decorator put in place of a definition, a dict of functions, a callback; running
  code does. Reported apart (precision only), next to the checkers' figures.
- Every tier's precision by that chain of judges, the certain tiers' precision and recall, and
  possible CALLS edges per certain one, in the package and in its whole sdist
  (`benchmarks.accuracy.tier_precision`), with issue 50's targets met or missed.
  `--set tuning|heldout|all` runs a set of `benchmarks.oracles.packages` (a package whose
  oracles are not in the cache is left out with a note).

    .venv/bin/python -m benchmarks.accuracy.graph_accuracy [requests==2.32.3 ...] [--json out.json]
        [--show-errors N] [--set heldout] [--md out.md]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.accuracy import tier_precision
from benchmarks.accuracy.tier_precision import Judges, tier_score
from benchmarks.oracles.packages import (
    HELD_OUT,
    ORACLE_OUT_DIR,
    PACKAGES,
    TUNING,
    PinnedPackage,
    fetch,
    parse_spec,
    sdist_dir,
)
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.languages.python.linker import IMPLICIT
from graphrag_code.model import CERTAIN_TIERS, Edge, EdgeKind, Resolution

DEFAULT_PACKAGES = (
    "requests==2.32.3", "flask==3.0.3", "click==8.1.7", "httpx==0.28.1",
    # held out while value flow was tuned on the four above (issue 15)
    "starlette==0.41.3", "huey==2.5.2",
)  # fmt: skip

SETS: dict[str, tuple[PinnedPackage, ...]] = {
    "tuning": TUNING,
    "heldout": HELD_OUT,
    "all": PACKAGES,
}


@dataclass
class Score:
    true_positive: int
    ours: int
    oracle: int

    @property
    def precision(self) -> float:
        return self.true_positive / self.ours if self.ours else 1.0

    @property
    def recall(self) -> float:
        return self.true_positive / self.oracle if self.oracle else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "true_positive": self.true_positive,
            "ours": self.ours,
            "oracle": self.oracle,
        }


def _score(ours: set[Any], oracle: set[Any]) -> Score:
    return Score(len(ours & oracle), len(ours), len(oracle))


def _strip(repo: str, node_id: str) -> str:
    return node_id.removeprefix(f"{repo}:").split("#", 1)[0].split("@", 1)[0]


def _import_pairs(linked: LinkedRepository) -> set[tuple[str, str]]:
    pairs = set()
    for edge in linked.edges():
        if edge.kind != EdgeKind.IMPORTS or edge.external or edge.via is not None:
            continue
        pairs.add((_strip(linked.repo, edge.source), _strip(linked.repo, edge.target)))
    return pairs


def _oracle_import_pairs(oracle: dict[str, Any]) -> set[tuple[str, str]]:
    return {(a, b) for a, b, _lines in oracle["internal_imports"] if a != b}


def _caller_module(linked: LinkedRepository, source_id: str) -> str:
    qualified = _strip(linked.repo, source_id)
    if qualified in linked.index.modules:
        return qualified
    return linked.index.symbol_module.get(qualified, qualified)


def _implicit(edge: Edge) -> bool:
    """An edge no call expression wrote (`with`, `for`, operators): the oracles only look at
    call expressions, so these are counted apart."""
    return edge.via is not None and all(
        reason.startswith(IMPLICIT) for reason in edge.via.split("; ")
    )


def _call_pairs(linked: LinkedRepository) -> dict[Resolution, set[tuple[str, str]]]:
    by_tier: dict[Resolution, set[tuple[str, str]]] = defaultdict(set)
    for edge in linked.edges():
        if edge.kind != EdgeKind.CALLS or edge.external or edge.resolution is None:
            continue
        if _implicit(edge):
            continue
        by_tier[edge.resolution].add(
            (_caller_module(linked, edge.source), _strip(linked.repo, edge.target))
        )
    return by_tier


def _site_targets(site: dict[str, Any], package: str) -> list[str]:
    """In-package targets of a call site. jedi sometimes reaches an in-package definition
    through another path and reports it as external; its qualified name tells."""
    targets = list(site["targets"])
    external = site.get("external")
    if external and external.startswith(f"{package}.") and external not in targets:
        targets.append(external)
    return targets


def _oracle_call_pairs(oracle: dict[str, Any]) -> set[tuple[str, str]]:
    classes = {c["qname"]: c for c in oracle["classes"]}
    pairs = set()
    for site in oracle["call_sites"]:
        module = _module_of_file(site["file"])
        for target in _site_targets(site, oracle["package"]):
            cls = classes.get(target)
            if cls is not None:
                inits = cls["init_targets"] or site.get("init_targets") or []
                pairs.add((module, inits[0] if inits else target))
            else:
                pairs.add((module, target))
    return pairs


def _judged_sites(oracle: dict[str, Any]) -> set[tuple[str, int]]:
    """(module, line) of the call sites jedi resolved to anything (in or out of the package)."""
    return {
        (_module_of_file(site["file"]), site["line"])
        for site in oracle["call_sites"]
        if site["targets"] or site.get("external")
    }


def _unresolved_sites(jedi: dict[str, Any]) -> set[tuple[str, int]]:
    """(module, line) of the call sites jedi resolved to nothing at all."""
    return {
        (_module_of_file(site["file"]), site["line"])
        for site in jedi["call_sites"]
        if not site["targets"] and not site.get("external")
    }


def _second_opinion_pairs(
    jedi: dict[str, Any], mypy: dict[str, Any] | None
) -> set[tuple[str, str]]:
    """(caller module, in-package target) pairs mypy gives at the call sites jedi left
    unresolved: jedi's answer stands wherever it has one."""
    if mypy is None:
        return set()
    unresolved = _unresolved_sites(jedi)
    package = f"{jedi['package']}."
    return {
        (site["module"], site["target"])
        for site in mypy["call_sites"]
        if (site["module"], site["line"]) in unresolved and site["target"].startswith(package)
    }


def _named_sites(jedi: dict[str, Any], mypy: dict[str, Any] | None) -> set[tuple[str, int, str]]:
    """(module, line, callee name) of the calls jedi resolved to anything, and of those mypy
    resolved where jedi did not: a call by that name on that line was judged."""
    named = {
        (_module_of_file(site["file"]), site["line"], _final_name(site["callee_text"]))
        for site in jedi["call_sites"]
        if site["targets"] or site.get("external")
    }
    unresolved = {
        (_module_of_file(site["file"]), site["line"], _final_name(site["callee_text"]))
        for site in jedi["call_sites"]
        if not site["targets"] and not site.get("external")
    }
    for site in mypy["call_sites"] if mypy is not None else ():
        key = (site["module"], site["line"], site["target"].rsplit(".", 1)[-1])
        if key in unresolved:
            named.add(key)
    return named


def _final_name(callee_text: str) -> str:
    return callee_text.replace("(", ".").replace(")", ".").rstrip(".").rsplit(".", 1)[-1]


def _judged_by_name(
    linked: LinkedRepository, tiers: set[Resolution], judged: set[tuple[str, int, str]]
) -> set[tuple[str, str]]:
    """Our pairs with at least one line where the oracles judged a call of the target's name
    (`X` or `__init__` for a constructor): an edge found through a value the oracles do not
    model (a wrapper a decorator returned, a callback) stays unjudged even when another call
    on its line was judged."""
    pairs = set()
    for edge in linked.edges():
        if edge.kind != EdgeKind.CALLS or edge.external or edge.resolution not in tiers:
            continue
        if _implicit(edge):
            continue
        module = _caller_module(linked, edge.source)
        target = _strip(linked.repo, edge.target)
        parts = target.split(".")
        names = {parts[-1]} | ({parts[-2]} if parts[-1] == "__init__" and len(parts) > 1 else set())
        if any((module, line, name) in judged for line in edge.lines for name in names):
            pairs.add((module, target))
    return pairs


def _judged_pairs(
    linked: LinkedRepository, tiers: set[Resolution], judged: set[tuple[str, int]]
) -> set[tuple[str, str]]:
    """Our caller-module pairs with at least one call site that jedi could judge."""
    pairs = set()
    for edge in linked.edges():
        if edge.kind != EdgeKind.CALLS or edge.external or edge.resolution not in tiers:
            continue
        if _implicit(edge):
            continue
        module = _caller_module(linked, edge.source)
        if any((module, line) in judged for line in edge.lines):
            pairs.add((module, _strip(linked.repo, edge.target)))
    return pairs


def _module_of_file(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def evaluate(spec: str, show_errors: int = 0) -> dict[str, Any]:
    """Compare with the oracle outputs in benchmarks/cache/oracles (run_all writes them)."""
    name, version = parse_spec(spec)
    base = ORACLE_OUT_DIR / f"{name}-{version}"
    imports_oracle = json.loads(Path(f"{base}.imports.json").read_text())
    calls_oracle = json.loads(Path(f"{base}.calls.json").read_text())
    mypy_path = Path(f"{base}.calls_mypy.json")
    mypy_oracle = json.loads(mypy_path.read_text()) if mypy_path.is_file() else None
    runtime_path = RUNTIME_DIR / f"{name}-{version}.calls.json"
    runtime = json.loads(runtime_path.read_text()) if runtime_path.is_file() else None
    result = compare(
        spec, imports_oracle, calls_oracle, show_errors, mypy_oracle=mypy_oracle,
        runtime_oracle=runtime,
    )  # fmt: skip
    sdist = link_repository(sdist_dir(name, version), repo=name)
    counts = tier_precision.edge_counts(sdist.edges())
    result["edges_by_tier_sdist"] = dict(sorted(counts.items()))
    result["possible_per_certain_sdist"] = tier_precision.possible_per_certain(counts)
    result["set"] = _set_of(spec)
    result["targets"] = tier_precision.targets(result)
    return result


def _set_of(spec: str) -> str:
    """The set `spec` belongs to: tuning, heldout, or "-" in neither."""
    for name in ("tuning", "heldout"):
        if any(package.spec == spec for package in SETS[name]):
            return name
    return "-"


def _by_tier(
    linked: LinkedRepository,
    tiers: dict[Resolution, set[tuple[str, str]]],
    oracle_calls: set[tuple[str, str]],
    judges: Judges,
    named: set[tuple[str, int, str]],
) -> dict[str, Any]:
    """The certain tiers' precision and recall, and every tier's precision, by `judges`."""
    certain_tiers = {Resolution(tier) for tier in CERTAIN_TIERS}
    certain = set().union(*(tiers[tier] for tier in certain_tiers))
    counts = tier_precision.edge_counts(linked.edges())
    return {
        "certain": {
            **tier_score(certain, _judged_by_name(linked, certain_tiers, named), judges),
            "recall": round(_score(certain, oracle_calls).recall, 4),
            "judges": judges.chain,
        },
        "tiers": {
            tier.value: {
                "edges": counts.get(tier.value, 0),
                **tier_score(tiers[tier], _judged_by_name(linked, {tier}, named), judges),
            }
            for tier in Resolution
        },
        "possible_per_certain": tier_precision.possible_per_certain(counts),
    }


def _runtime_pairs(runtime: dict[str, Any], modules: list[str]) -> set[tuple[str, str]]:
    """(caller module, callee) of every call the traced test suite made inside the package;
    the caller's module is the longest module name its qualified name starts with."""
    known = sorted(modules, key=len, reverse=True)
    pairs = set()
    for edge in runtime["edges"]:
        caller = edge["caller"]
        module = next((m for m in known if caller == m or caller.startswith(m + ".")), None)
        if module is not None:
            pairs.add((module, edge["callee"]))
    return pairs


def compare(
    spec: str,
    imports_oracle: dict[str, Any],
    calls_oracle: dict[str, Any],
    show_errors: int = 0,
    *,
    mypy_oracle: dict[str, Any] | None = None,
    runtime_oracle: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Our graph of the package's sources against the oracle outputs (mypy's, when given,
    only for the call sites jedi left unresolved; the runtime call graph's, when given, only
    for pairs neither confirms)."""
    name, version = parse_spec(spec)
    linked = link_repository(fetch(name, version).package_dir, repo=name)

    ours_imports = _import_pairs(linked)
    oracle_imports = _oracle_import_pairs(imports_oracle)
    tiers = _call_pairs(linked)
    oracle_calls = _oracle_call_pairs(calls_oracle)
    certain = tiers[Resolution.EXACT] | tiers[Resolution.INFERRED]
    judged = _judged_pairs(
        linked, {Resolution.EXACT, Resolution.INFERRED}, _judged_sites(calls_oracle)
    )
    result: dict[str, Any] = {
        "package": spec,
        "modules": len(linked.index.modules),
        "imports": _score(ours_imports, oracle_imports).as_dict(),
        "calls_certain": _score(certain, oracle_calls).as_dict(),
        # precision where jedi had an answer: our edges at sites jedi left unresolved are
        # neither confirmed nor refuted
        "calls_certain_judged_precision": round(_score(judged, oracle_calls).precision, 4),
        "calls_with_name_tier": _score(certain | tiers[Resolution.NAME], oracle_calls).as_dict(),
        "calls_by_tier": {
            tier.value: _score(tiers[tier], oracle_calls).as_dict() for tier in Resolution
        },
    }
    ran = (
        _runtime_pairs(runtime_oracle, imports_oracle["modules"])
        if runtime_oracle is not None
        else None
    )
    judges = Judges(
        jedi=frozenset(oracle_calls),
        checkers=frozenset(oracle_calls | _second_opinion_pairs(calls_oracle, mypy_oracle)),
        running=frozenset(ran) if ran is not None else None,
    )
    named_sites = _named_sites(calls_oracle, mypy_oracle)
    result.update(_by_tier(linked, tiers, oracle_calls, judges, named_sites))
    if mypy_oracle is not None:
        # precision against jedi, with mypy judging the sites jedi could not
        both = set(judges.checkers)
        result["calls_certain_jedi_then_mypy"] = _score(certain, both).as_dict()
        unresolved = _unresolved_sites(calls_oracle)
        typed = {(site["module"], site["line"]) for site in mypy_oracle["call_sites"]}
        result["sites_jedi_left_unresolved"] = len(unresolved)
        result["of_which_mypy_resolved"] = len(unresolved & typed)
        # the same, counting only our edges at calls one of the two judged (by line and the
        # callee's name): a call neither resolved (a callback, a dict of functions, what a
        # decorator returned) can be neither confirmed nor refuted, and is listed apart
        certain_tiers = {Resolution.EXACT, Resolution.INFERRED}
        judged_both = _judged_by_name(linked, certain_tiers, named_sites)
        result["calls_certain_jedi_then_mypy_judged"] = _score(judged_both, both).as_dict()
        result["calls_certain_unjudged"] = sorted(certain - judged_both - both)
        if ran is not None:
            confirmed = (certain - both) & ran
            result["calls_certain_confirmed_by_runtime"] = sorted(confirmed)
            result["calls_certain_jedi_mypy_runtime_precision"] = round(
                len(certain & (both | ran)) / len(certain) if certain else 1.0, 4
            )
    if show_errors:
        result["errors"] = {
            "imports_missing": sorted(oracle_imports - ours_imports)[:show_errors],
            "imports_extra": sorted(ours_imports - oracle_imports)[:show_errors],
            "calls_missing": sorted(oracle_calls - certain - tiers[Resolution.NAME])[:show_errors],
            "calls_extra": sorted(certain - oracle_calls)[:show_errors],
        }
    return result


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| package | modules | imports P | imports R | calls P (exact+inferred) | calls P judged "
        "| calls P (jedi, then mypy) | calls P (jedi, then mypy; judged) | unjudged edges "
        "| calls R (exact+inferred) | calls R (+name) | name-tier P "
        "| calls P (jedi, mypy, then running code) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        second = r.get("calls_certain_jedi_then_mypy")
        with_mypy = f"{second['precision']:.3f}" if second else "-"
        judged = r.get("calls_certain_jedi_then_mypy_judged")
        with_mypy += f" | {judged['precision']:.3f}" if judged else " | -"
        with_mypy += f" | {len(r.get('calls_certain_unjudged', []))}"
        lines.append(
            f"| {r['package']} | {r['modules']} | {r['imports']['precision']:.3f} | "
            f"{r['imports']['recall']:.3f} | {r['calls_certain']['precision']:.3f} | "
            f"{r['calls_certain_judged_precision']:.3f} | {with_mypy} | "
            f"{r['calls_certain']['recall']:.3f} | {r['calls_with_name_tier']['recall']:.3f} | "
            f"{r['calls_by_tier']['name']['precision']:.3f} | {_runtime_cell(r)} |"
        )
    return "\n".join(lines)


def _runtime_cell(result: dict[str, Any]) -> str:
    precision = result.get("calls_certain_jedi_mypy_runtime_precision")
    if precision is None:
        return "-"
    return f"{precision:.3f} (+{len(result['calls_certain_confirmed_by_runtime'])})"


def require_oracles(specs: list[str]) -> None:
    """Stop with a message naming the command to run when a package's call oracle is not in
    the cache (before anything is downloaded or linked)."""
    for spec in specs:
        name, version = parse_spec(spec)
        if not (ORACLE_OUT_DIR / f"{name}-{version}.calls.json").is_file():
            raise SystemExit(
                f"no oracles for {spec}: run `python -m benchmarks.oracles.run_all {spec}` first"
            )


def _specs(packages: list[str], chosen_set: str | None) -> list[str]:
    """The packages named, else those of the chosen set whose oracles are cached, else the
    default six."""
    if packages:
        return packages
    if chosen_set is None:
        return list(DEFAULT_PACKAGES)
    specs = []
    for package in SETS[chosen_set]:
        if (ORACLE_OUT_DIR / f"{package.name}-{package.version}.calls.json").is_file():
            specs.append(package.spec)
        else:
            print(
                f"note: {package.spec} left out: no oracles (python -m benchmarks.oracles.run_all)"
            )
    return specs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="*")
    parser.add_argument("--set", choices=sorted(SETS), dest="chosen_set")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--md", type=Path, help="the per-tier table, as Markdown")
    parser.add_argument("--show-errors", type=int, default=0)
    args = parser.parse_args()
    known = {p.spec for p in PACKAGES}
    results = []
    for spec in _specs(args.packages, args.chosen_set):
        if spec not in known:
            print(f"note: {spec} is not pinned in benchmarks/oracles/packages.py")
        results.append(evaluate(spec, args.show_errors))
    print(markdown(results))
    print()
    print(tier_precision.markdown(results))
    if args.md:
        args.md.parent.mkdir(parents=True, exist_ok=True)
        args.md.write_text(tier_precision.markdown(results) + "\n")
    if args.show_errors:
        print(json.dumps([{r["package"]: r["errors"]} for r in results], indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
