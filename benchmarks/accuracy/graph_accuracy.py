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
  oracles are not in the cache is left out with a note); the per-tier table then ends with
  one row per set, its packages pooled (`tier_precision.pooled`).

    .venv/bin/python -m benchmarks.accuracy.graph_accuracy [requests==2.32.3 ...] [--json out.json]
        [--show-errors N] [--set heldout] [--md out.md]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from benchmarks.accuracy import tier_precision
from benchmarks.accuracy.call_pairs import (
    call_pairs,
    judged_by_name,
    judged_pairs,
    judged_sites,
    named_sites,
    oracle_call_pairs,
    runtime_pairs,
    second_opinion_pairs,
    strip,
    unresolved_sites,
)
from benchmarks.accuracy.tier_precision import Judges, score, tier_score
from benchmarks.oracles.packages import (
    DEFAULT_SPECS,
    ORACLE_OUT_DIR,
    PACKAGES,
    SETS,
    fetch,
    parse_spec,
    sdist_dir,
)
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.model import CERTAIN_TIERS, EdgeKind, Resolution


def _import_pairs(linked: LinkedRepository) -> set[tuple[str, str]]:
    pairs = set()
    for edge in linked.edges():
        if edge.kind != EdgeKind.IMPORTS or edge.external or edge.via is not None:
            continue
        pairs.add((strip(linked.repo, edge.source), strip(linked.repo, edge.target)))
    return pairs


def _oracle_import_pairs(oracle: dict[str, Any]) -> set[tuple[str, str]]:
    return {(a, b) for a, b, _lines in oracle["internal_imports"] if a != b}


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
    found = score(certain, oracle_calls)
    return {
        "certain": {
            **tier_score(certain, judged_by_name(linked, certain_tiers, named), judges),
            "recall": round(found.recall, 4),
            "recall_found": found.true_positive,
            "recall_of": found.oracle,
            "judges": judges.chain,
        },
        "tiers": {
            tier.value: {
                "edges": counts.get(tier.value, 0),
                **tier_score(tiers[tier], judged_by_name(linked, {tier}, named), judges),
            }
            for tier in Resolution
        },
        "possible_per_certain": tier_precision.possible_per_certain(counts),
    }


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
    tiers = call_pairs(linked)
    oracle_calls = oracle_call_pairs(calls_oracle)
    certain = tiers[Resolution.EXACT] | tiers[Resolution.INFERRED]
    judged = judged_pairs(
        linked, {Resolution.EXACT, Resolution.INFERRED}, judged_sites(calls_oracle)
    )
    result: dict[str, Any] = {
        "package": spec,
        "modules": len(linked.index.modules),
        "imports": score(ours_imports, oracle_imports).as_dict(),
        "calls_certain": score(certain, oracle_calls).as_dict(),
        # precision where jedi had an answer: our edges at sites jedi left unresolved are
        # neither confirmed nor refuted
        "calls_certain_judged_precision": round(score(judged, oracle_calls).precision, 4),
        "calls_with_name_tier": score(certain | tiers[Resolution.NAME], oracle_calls).as_dict(),
        "calls_by_tier": {
            tier.value: score(tiers[tier], oracle_calls).as_dict() for tier in Resolution
        },
    }
    ran = (
        runtime_pairs(runtime_oracle, imports_oracle["modules"])
        if runtime_oracle is not None
        else None
    )
    judges = Judges(
        jedi=frozenset(oracle_calls),
        checkers=frozenset(oracle_calls | second_opinion_pairs(calls_oracle, mypy_oracle)),
        running=frozenset(ran) if ran is not None else None,
    )
    named = named_sites(calls_oracle, mypy_oracle)
    result.update(_by_tier(linked, tiers, oracle_calls, judges, named))
    if mypy_oracle is not None:
        # precision against jedi, with mypy judging the sites jedi could not
        both = set(judges.checkers)
        result["calls_certain_jedi_then_mypy"] = score(certain, both).as_dict()
        unresolved = unresolved_sites(calls_oracle)
        typed = {(site["module"], site["line"]) for site in mypy_oracle["call_sites"]}
        result["sites_jedi_left_unresolved"] = len(unresolved)
        result["of_which_mypy_resolved"] = len(unresolved & typed)
        # the same, counting only our edges at calls one of the two judged (by line and the
        # callee's name): a call neither resolved (a callback, a dict of functions, what a
        # decorator returned) can be neither confirmed nor refuted, and is listed apart
        certain_tiers = {Resolution.EXACT, Resolution.INFERRED}
        judged_both = judged_by_name(linked, certain_tiers, named)
        result["calls_certain_jedi_then_mypy_judged"] = score(judged_both, both).as_dict()
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
        return list(DEFAULT_SPECS)
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
