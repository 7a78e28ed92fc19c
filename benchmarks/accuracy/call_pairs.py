"""Our CALLS edges and the oracles' call sites as comparable (caller module, callee) pairs,
and which of them the oracles judged: shared by `graph_accuracy` and the scripts that list
its errors (`tier_errors`, `recall_misses`).

Never imported by graphrag_code; the oracles' JSON is that of `benchmarks/oracles`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from typing import Any

from graphrag_code.ingest.offline import LinkedRepository
from graphrag_code.languages.python.linker import IMPLICIT
from graphrag_code.model import Edge, EdgeKind, Resolution

__all__ = [
    "call_pairs",
    "caller_module",
    "is_implicit",
    "judged_by_name",
    "judged_pairs",
    "judged_sites",
    "module_of_file",
    "named_sites",
    "oracle_call_pairs",
    "runtime_pairs",
    "second_opinion_pairs",
    "site_targets",
    "strip",
    "tier_edges",
    "unresolved_sites",
]


def strip(repo: str, node_id: str) -> str:
    return node_id.removeprefix(f"{repo}:").split("#", 1)[0].split("@", 1)[0]


def caller_module(linked: LinkedRepository, source_id: str) -> str:
    qualified = strip(linked.repo, source_id)
    if qualified in linked.index.modules:
        return qualified
    return linked.index.symbol_module.get(qualified, qualified)


def is_implicit(edge: Edge) -> bool:
    """An edge no call expression wrote (`with`, `for`, operators): the oracles only look at
    call expressions, so these are counted apart."""
    return edge.via is not None and all(
        reason.startswith(IMPLICIT) for reason in edge.via.split("; ")
    )


def call_pairs(linked: LinkedRepository) -> dict[Resolution, set[tuple[str, str]]]:
    by_tier: dict[Resolution, set[tuple[str, str]]] = defaultdict(set)
    for edge in linked.edges():
        if edge.kind != EdgeKind.CALLS or edge.external or edge.resolution is None:
            continue
        if is_implicit(edge):
            continue
        by_tier[edge.resolution].add(
            (caller_module(linked, edge.source), strip(linked.repo, edge.target))
        )
    return by_tier


def site_targets(site: dict[str, Any], package: str) -> list[str]:
    """In-package targets of a call site. jedi sometimes reaches an in-package definition
    through another path and reports it as external; its qualified name tells."""
    targets = list(site["targets"])
    external = site.get("external")
    if external and external.startswith(f"{package}.") and external not in targets:
        targets.append(external)
    return targets


def oracle_call_pairs(oracle: dict[str, Any]) -> set[tuple[str, str]]:
    classes = {c["qname"]: c for c in oracle["classes"]}
    pairs = set()
    for site in oracle["call_sites"]:
        module = module_of_file(site["file"])
        for target in site_targets(site, oracle["package"]):
            cls = classes.get(target)
            if cls is not None:
                inits = cls["init_targets"] or site.get("init_targets") or []
                pairs.add((module, inits[0] if inits else target))
            else:
                pairs.add((module, target))
    return pairs


def judged_sites(oracle: dict[str, Any]) -> set[tuple[str, int]]:
    """(module, line) of the call sites jedi resolved to anything (in or out of the package)."""
    return {
        (module_of_file(site["file"]), site["line"])
        for site in oracle["call_sites"]
        if site["targets"] or site.get("external")
    }


def unresolved_sites(jedi: dict[str, Any]) -> set[tuple[str, int]]:
    """(module, line) of the call sites jedi resolved to nothing at all."""
    return {
        (module_of_file(site["file"]), site["line"])
        for site in jedi["call_sites"]
        if not site["targets"] and not site.get("external")
    }


def second_opinion_pairs(jedi: dict[str, Any], mypy: dict[str, Any] | None) -> set[tuple[str, str]]:
    """(caller module, in-package target) pairs mypy gives at the call sites jedi left
    unresolved: jedi's answer stands wherever it has one."""
    if mypy is None:
        return set()
    unresolved = unresolved_sites(jedi)
    package = f"{jedi['package']}."
    return {
        (site["module"], site["target"])
        for site in mypy["call_sites"]
        if (site["module"], site["line"]) in unresolved and site["target"].startswith(package)
    }


def named_sites(jedi: dict[str, Any], mypy: dict[str, Any] | None) -> set[tuple[str, int, str]]:
    """(module, line, callee name) of the calls jedi resolved to anything, and of those mypy
    resolved where jedi did not: a call by that name on that line was judged."""
    named = {
        (module_of_file(site["file"]), site["line"], _final_name(site["callee_text"]))
        for site in jedi["call_sites"]
        if site["targets"] or site.get("external")
    }
    unresolved = {
        (module_of_file(site["file"]), site["line"], _final_name(site["callee_text"]))
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


def judged_by_name(
    linked: LinkedRepository, tiers: set[Resolution], judged: set[tuple[str, int, str]]
) -> set[tuple[str, str]]:
    """Our pairs with at least one line where the oracles judged a call of the target's name
    (`X` or `__init__` for a constructor): an edge found through a value the oracles do not
    model (a wrapper a decorator returned, a callback) stays unjudged even when another call
    on its line was judged."""
    pairs = set()
    for module, target, edge in tier_edges(linked, tiers):
        parts = target.split(".")
        names = {parts[-1]} | ({parts[-2]} if parts[-1] == "__init__" and len(parts) > 1 else set())
        if any((module, line, name) in judged for line in edge.lines for name in names):
            pairs.add((module, target))
    return pairs


def judged_pairs(
    linked: LinkedRepository, tiers: set[Resolution], judged: set[tuple[str, int]]
) -> set[tuple[str, str]]:
    """Our caller-module pairs with at least one call site that jedi could judge."""
    pairs = set()
    for module, target, edge in tier_edges(linked, tiers):
        if any((module, line) in judged for line in edge.lines):
            pairs.add((module, target))
    return pairs


def tier_edges(
    linked: LinkedRepository, tiers: Collection[Resolution], edges: Iterable[Edge] | None = None
) -> Iterator[tuple[str, str, Edge]]:
    """(caller module, callee) of each of our internal CALLS edges of `tiers` that a call
    expression wrote (of `edges`; by default every edge), with the edge."""
    for edge in linked.edges() if edges is None else edges:
        if edge.kind != EdgeKind.CALLS or edge.external or edge.resolution not in tiers:
            continue
        if is_implicit(edge):
            continue
        yield caller_module(linked, edge.source), strip(linked.repo, edge.target), edge


def module_of_file(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def runtime_pairs(runtime: dict[str, Any], modules: list[str]) -> set[tuple[str, str]]:
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
