"""The certain tiers' recall misses, one row per jedi call site, with what we made of it.

A miss is a (caller module, callee) pair jedi resolves that no exact or inferred edge joins
(`graph_accuracy`'s certain recall). For each of its call sites the row gives file:line, the
callee text, and our CALLS edges from that module on that line: none (`unresolved`), a
possible tier to the same target, or certain edges to another target. Grouping the rows by
that outcome is the first step to the classes of misses a linking rule can mend (issue 50).

    .venv/bin/python -m benchmarks.accuracy.recall_misses huey==2.5.2 [flask==3.0.3 ...]
        [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from benchmarks.accuracy.call_pairs import (
    caller_module,
    is_implicit,
    module_of_file,
    oracle_call_pairs,
    site_targets,
    strip,
)
from benchmarks.accuracy.graph_accuracy import require_oracles
from benchmarks.oracles.packages import ORACLE_OUT_DIR, fetch, parse_spec
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.model import CERTAIN_TIERS, EdgeKind

Row = dict[str, Any]


def _edges_by_line(linked: LinkedRepository) -> dict[tuple[str, int], list[tuple[str, str]]]:
    """(caller module, line) -> (tier, target) of our internal explicit CALLS edges."""
    by_line: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)
    for edge in linked.edges():
        if edge.kind != EdgeKind.CALLS or edge.external or edge.resolution is None:
            continue
        if is_implicit(edge):
            continue
        module = caller_module(linked, edge.source)
        target = strip(linked.repo, edge.target)
        for line in edge.lines:
            by_line[(module, line)].append((edge.resolution.value, target))
    return by_line


def _outcome(ours: list[tuple[str, str]], target: str) -> str:
    """What the linker made of a site whose jedi target is `target`."""
    tiers = sorted({tier for tier, to in ours if to == target})
    if tiers:
        return "same target, tier " + "/".join(tiers)
    if any(tier in CERTAIN_TIERS for tier, _ in ours):
        return "certain edge to another target"
    if ours:
        return "possible edge to another target"
    return "unresolved"


def misses(spec: str) -> list[Row]:
    """One row per jedi call site of each missed pair."""
    name, version = parse_spec(spec)
    oracle = json.loads(Path(ORACLE_OUT_DIR / f"{name}-{version}.calls.json").read_text())
    linked = link_repository(fetch(name, version).package_dir, repo=name)
    certain = {
        (caller_module(linked, e.source), strip(linked.repo, e.target))
        for e in linked.edges()
        if e.kind == EdgeKind.CALLS
        and not e.external
        and e.resolution is not None
        and e.resolution.value in CERTAIN_TIERS
        and not is_implicit(e)
    }
    missed = oracle_call_pairs(oracle) - certain
    classes = {c["qname"]: c for c in oracle["classes"]}
    by_line = _edges_by_line(linked)
    rows: list[Row] = []
    for site in oracle["call_sites"]:
        module = module_of_file(site["file"])
        for target in site_targets(site, oracle["package"]):
            cls = classes.get(target)
            inits = (cls["init_targets"] or site.get("init_targets") or []) if cls else []
            pair_target = inits[0] if inits else target
            if (module, pair_target) not in missed:
                continue
            ours = by_line.get((module, site["line"]), [])
            rows.append({
                "package": spec,
                "site": f"{site['file']}:{site['line']}",
                "caller": site["caller"],
                "callee_text": site["callee_text"],
                "target": pair_target,
                "outcome": _outcome(ours, pair_target),
                "ours": sorted(set(ours)),
            })  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="+")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    require_oracles(args.packages)
    rows = [row for spec in args.packages for row in misses(spec)]
    for row in rows:
        ours = ", ".join(f"{tier}:{to}" for tier, to in row["ours"]) or "-"
        print(f"{row['site']}  {row['callee_text']} -> {row['target']}  [{row['outcome']}]  {ours}")
    print()
    for outcome, count in Counter(row["outcome"] for row in rows).most_common():
        print(f"{count:4d}  {outcome}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
