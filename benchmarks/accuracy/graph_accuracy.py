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

    .venv/bin/python -m benchmarks.accuracy.graph_accuracy [requests==2.32.3 ...] [--json out.json]
        [--show-errors N]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import ORACLE_OUT_DIR, PACKAGES, fetch, parse_spec
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.languages.python.linker import IMPLICIT
from graphrag_code.model import Edge, EdgeKind, Resolution

DEFAULT_PACKAGES = (
    "requests==2.32.3", "flask==3.0.3", "click==8.1.7", "httpx==0.28.1",
    # held out while value flow was tuned on the four above (issue 15)
    "starlette==0.41.3", "huey==2.5.2",
)  # fmt: skip


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


def _named_sites(jedi: dict[str, Any], mypy: dict[str, Any]) -> set[tuple[str, int, str]]:
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
    for site in mypy["call_sites"]:
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
    return compare(
        spec, imports_oracle, calls_oracle, show_errors, mypy_oracle=mypy_oracle,
        runtime_oracle=runtime,
    )  # fmt: skip


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
    if mypy_oracle is not None:
        # precision against jedi, with mypy judging the sites jedi could not
        both = oracle_calls | _second_opinion_pairs(calls_oracle, mypy_oracle)
        result["calls_certain_jedi_then_mypy"] = _score(certain, both).as_dict()
        unresolved = _unresolved_sites(calls_oracle)
        typed = {(site["module"], site["line"]) for site in mypy_oracle["call_sites"]}
        result["sites_jedi_left_unresolved"] = len(unresolved)
        result["of_which_mypy_resolved"] = len(unresolved & typed)
        # the same, counting only our edges at calls one of the two judged (by line and the
        # callee's name): a call neither resolved (a callback, a dict of functions, what a
        # decorator returned) can be neither confirmed nor refuted, and is listed apart
        certain_tiers = {Resolution.EXACT, Resolution.INFERRED}
        named = _named_sites(calls_oracle, mypy_oracle)
        judged_both = _judged_by_name(linked, certain_tiers, named)
        result["calls_certain_jedi_then_mypy_judged"] = _score(judged_both, both).as_dict()
        result["calls_certain_unjudged"] = sorted(certain - judged_both - both)
        if runtime_oracle is not None:
            ran = _runtime_pairs(runtime_oracle, imports_oracle["modules"])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="*", default=list(DEFAULT_PACKAGES))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--show-errors", type=int, default=0)
    args = parser.parse_args()
    known = {p.spec for p in PACKAGES}
    results = []
    for spec in args.packages:
        if spec not in known:
            print(f"note: {spec} is not pinned in benchmarks/oracles/packages.py")
        results.append(evaluate(spec, args.show_errors))
    print(markdown(results))
    if args.show_errors:
        print(json.dumps([{r["package"]: r["errors"]} for r in results], indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
