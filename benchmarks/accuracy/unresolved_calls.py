"""What stays unresolved, and what value flow resolved, in the measured packages (issue 15).

For each package: call sites, how many the linker resolved by name or type, how many only
through values (edges whose `via` holds a reason: certain ones, tier `inferred`, apart from
the possible ones of tiers `dispatch`, `many` and `signature`), how many implicit
special-method calls it added, and the unresolved sites by kind (`linking.calls`:
"dynamic:eval", "values:many", "values:unknown:parameter", ...). No Neo4j: the graph is
linked in memory.

    .venv/bin/python -m benchmarks.accuracy.unresolved_calls [NAME==VERSION ...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import DEFAULT_SPECS, fetch, parse_spec
from graphrag_code.ingest.offline import link_repository
from graphrag_code.languages.python.linker import IMPLICIT
from graphrag_code.model import CERTAIN_TIERS, EdgeKind

# kinds as BENCHMARKS.md names them
_KIND_NAMES = {
    "values:unknown:self": "attribute of self/cls whose value is unknown",
    "values:unknown:parameter": "unannotated parameter, callers unknown",
    "values:unknown:name": "attribute of a name whose value is unknown",
    "values:unknown:variable": "local variable whose value is unknown",
    "values:unknown:expression": "call on an expression (subscript, call result)",
    "values:none": "no callable value (None, a parameter no call passes)",
    "values:none:known": "values all known, none ours, None or a lambda (a list lacking it)",
    "values:many": f"more than the {8} values allowed",
}


_POSSIBLE = ("dispatch", "many", "signature")


def measure(spec: str) -> dict[str, Any]:
    name, version = parse_spec(spec)
    started = time.process_time()
    linked = link_repository(fetch(name, version).package_dir, repo=name)
    seconds = time.process_time() - started
    sites = sum(len(f.calls) for f in linked.parsed.values())
    kinds: Counter[str] = Counter()
    for links in linked.links.values():
        kinds.update(links.unresolved_kinds)
    through_values = implicit = 0
    possible: Counter[str] = Counter()
    for edge in linked.edges():
        if edge.kind != EdgeKind.CALLS or edge.via is None:
            continue
        if all(reason.startswith(IMPLICIT) for reason in edge.via.split("; ")):
            implicit += 1
        elif edge.resolution is not None and edge.resolution.value not in CERTAIN_TIERS:
            possible[edge.resolution.value] += 1
        else:
            through_values += 1
    unresolved = sum(kinds.values())
    return {
        "package": spec,
        "call_sites": sites,
        "unresolved_sites": unresolved,
        "unresolved_share": round(unresolved / sites, 4) if sites else 0.0,
        "edges_through_values": through_values,
        "edges_implicit": implicit,
        "possible_edges_by_tier": dict(sorted(possible.items())),
        "unresolved_by_kind": dict(kinds.most_common()),
        "link_cpu_seconds": round(seconds, 2),
    }


def markdown(results: list[dict[str, Any]]) -> str:
    kinds = sorted({k for r in results for k in r["unresolved_by_kind"]})
    head = ["package", "call sites", "unresolved", "certain edges via values",
            "possible edges (dispatch / many / signature)", "implicit edges", *kinds]  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        by_kind = r["unresolved_by_kind"]
        lines.append(
            f"| {r['package']} | {r['call_sites']} | {r['unresolved_sites']} "
            f"({r['unresolved_share']:.1%}) | {r['edges_through_values']} | "
            + " / ".join(str(r["possible_edges_by_tier"].get(t, 0)) for t in _POSSIBLE)
            + f" | {r['edges_implicit']} | "
            + " | ".join(str(by_kind.get(k, 0)) for k in kinds)
            + " |"
        )
    legend = [f"- `{kind}`: {_KIND_NAMES.get(kind, kind)}" for kind in kinds]
    return "\n".join([*lines, "", *legend])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="*", default=list(DEFAULT_SPECS))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = [measure(spec) for spec in args.packages]
    print(markdown(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
