"""Dump every edge and unresolved call site the linker makes for a set of source trees, to
compare two versions of the code that must link identically (a refactoring: "the edges are the
same before and after").

Links each tree offline (`ingest.offline.link_repository`: parse + link, no Neo4j) and writes
one JSON file: tree name -> sorted lines, each edge as `KIND source -> target` with every
property that the graph stores (tier, lines, index, names, via, implements), and each file's
unresolved call sites (per caller, with their names and kinds). `--compare A B` reads two
dumps and prints the edges only one of them has, per tree; it exits 1 when they differ.

    .venv/bin/python -m benchmarks.accuracy.edges_dump TREE [TREE ...] --out before.json
    .venv/bin/python -m benchmarks.accuracy.edges_dump --compare before.json after.json

Run the first form under each version (e.g. a `git worktree` of the old commit on
PYTHONPATH). The trees used for issue 49 are the five runtime packages' sdists
(`benchmarks.oracles.packages`) and the npm code bases of `benchmarks.oracles.ts_oracle`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from graphrag_code.ingest.offline import link_repository
from graphrag_code.linking.edges import FileLinks
from graphrag_code.model import Edge


def edge_line(edge: Edge) -> str:
    """One edge as a stable line of text holding every property the graph stores."""
    tier = edge.resolution.value if edge.resolution else "-"
    return (
        f"{edge.kind.value} {edge.source} -> {edge.target} ext={int(edge.external)} "
        f"tier={tier} lines={','.join(map(str, edge.lines))} index={edge.index} "
        f"names={','.join(edge.names)} via={edge.via} implements={int(edge.implements)}"
    )


def unresolved_lines(links: FileLinks) -> list[str]:
    """A file's unresolved call sites as stable lines: per caller, then by kind."""
    names = links.unresolved_names
    lines = [
        f"UNRESOLVED {caller} sites={count} names={','.join(names.get(caller, ()))}"
        for caller, count in links.unresolved_calls.items()
    ]
    lines += [f"UNRESOLVED {links.path} {kind}={n}" for kind, n in links.unresolved_kinds.items()]
    return lines


def dump(trees: list[Path]) -> dict[str, list[str]]:
    """Tree name -> the sorted edge and unresolved-call lines of that tree."""
    out: dict[str, list[str]] = {}
    for tree in trees:
        started = time.perf_counter()
        linked = link_repository(tree, repo=tree.name)
        lines = [edge_line(edge) for edge in linked.edges()]
        lines += [line for links in linked.links.values() for line in unresolved_lines(links)]
        out[tree.name] = sorted(lines)
        seconds = time.perf_counter() - started
        print(f"{tree.name}: {len(out[tree.name])} lines, {seconds:.1f} s", file=sys.stderr)
    return out


def compare(before: dict[str, list[str]], after: dict[str, list[str]]) -> int:
    """Print the edges only one side has; the number of trees that differ."""
    differing = 0
    for name in sorted(set(before) | set(after)):
        old, new = set(before.get(name, [])), set(after.get(name, []))
        if old == new and name in before and name in after:
            print(f"{name}: identical ({len(old)} lines)")
            continue
        differing += 1
        print(f"{name}: {len(old - new)} only before, {len(new - old)} only after")
        for line in sorted(old - new)[:20]:
            print(f"  - {line}")
        for line in sorted(new - old)[:20]:
            print(f"  + {line}")
    return differing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, help="write the dump here")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(path.read_text()) for path in args.compare)
        return 1 if compare(before, after) else 0
    if not args.trees or args.out is None:
        parser.error("give the trees to link and --out, or --compare BEFORE AFTER")
    args.out.write_text(json.dumps(dump(args.trees), indent=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
