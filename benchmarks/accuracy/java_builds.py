"""How a multi-module Java build links: the files several build modules hold, and the tiers.

Links a checkout in memory (no Neo4j) and counts what the core's lookup tables could not hold
before build modules qualified names (BENCHMARKS §22, issue 52): files whose module name
another file claims (shadowed: their calls end as `name` matches or unresolved), files
qualified by their build module, call edges by tier, unresolved call sites.

    .venv/bin/python -m benchmarks.accuracy.java_builds FOLDER [--json out.json]

slf4j 1.7.36 is the check in §22: every binding module declares `org.slf4j.impl.
StaticLoggerBinder`, and slf4j-api compiles against a stub of its own
(`git -C slf4j archive v_1.7.36 | tar -x -C /tmp/slf4j`).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from graphrag_code.ingest.offline import link_repository
from graphrag_code.languages.java.modules import module_qualifier
from graphrag_code.model import EdgeKind


def measure(folder: Path) -> dict[str, Any]:
    linked = link_repository(folder, repo="builds", languages=frozenset({"java"}))
    tiers: Counter[str] = Counter()
    for edge in linked.edges():
        if edge.kind == EdgeKind.CALLS and edge.resolution is not None:
            side = "external" if edge.external else "internal"
            tiers[f"{side} {edge.resolution.value}"] += 1
    unresolved = sum(sum(links.unresolved_calls.values()) for links in linked.links.values())
    return {
        "folder": folder.name,
        "files": len(linked.parsed),
        "qualified_files": sum(1 for f in linked.parsed.values() if module_qualifier(f.module)),
        "shadowed_files": len(linked.index.shadowed_paths),
        "calls": dict(sorted(tiers.items())),
        "unresolved_call_sites": unresolved,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"error: {args.folder} is not a folder")
        return 1
    result = measure(args.folder)
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
