"""What the compiler-judged scorers (`go_accuracy`, `java_accuracy`, `rust_accuracy`) share:
the timed offline link, line counts, the speed table beside other trees, and the per-tier
Markdown table (dispatch edges left out: each oracle names the interface or trait method at a
dispatched call, never a body, so each scorer judges them against its own call graph)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.model import Resolution

__all__ = ["cell", "line_count", "speed_table", "tier_table", "timed_link"]


def timed_link(
    root: Path, repeat: int = 1, languages: frozenset[str] | None = None
) -> tuple[LinkedRepository, float]:
    """`link_repository` (one worker) of `root`, and the best of `repeat` wall times."""
    best = float("inf")
    linked = None
    for _ in range(max(repeat, 1)):
        started = time.perf_counter()
        linked = link_repository(root, repo=root.name, languages=languages)
        best = min(best, time.perf_counter() - started)
    assert linked is not None
    return linked, best


def line_count(root: Path, paths: Iterable[str]) -> int:
    """Lines of the given files under `root` (for lines/s beside files/s)."""
    total = 0
    for path in paths:
        try:
            total += (root / path).read_bytes().count(b"\n")
        except OSError:
            continue
    return total


def speed_table(trees: Sequence[Path], repeat: int) -> str:
    """`link_repository` files/s of other trees (a Python and a TS code base), timed the same
    way, to set beside a language's. A tree that is no folder raises NotADirectoryError."""
    lines = [
        "| tree | files linked | lines | link s (best of N) | files/s | lines/s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for tree in trees:
        if not tree.is_dir():
            raise NotADirectoryError(f"{tree} is not a folder")
        linked, seconds = timed_link(tree, repeat)
        count = len(linked.parsed)
        loc = line_count(tree, linked.parsed)
        lines.append(
            f"| {tree.name} | {count} | {loc} | {seconds:.2f} | {count / seconds:.1f} "
            f"| {loc / seconds:.0f} |"
        )
    return "\n".join(lines)


def cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def tier_table(results: Sequence[Mapping[str, Any]], name_key: str, heading: str) -> list[str]:
    """Per-tier precision rows (right / wrong / unjudged) of each result's `calls_by_tier`."""
    tiers = [t.value for t in Resolution if t is not Resolution.DISPATCH]
    lines = [
        f"| set | {heading} | "
        + " | ".join(f"{t} P (right / wrong / unjudged)" for t in tiers)
        + " |",
        "|---|---|" + "---|" * len(tiers),
    ]
    for r in results:
        cells = []
        for tier in tiers:
            v = r["calls_by_tier"][tier]
            cells.append(f"{cell(v['precision'])} ({v['right']} / {v['wrong']} / {v['unjudged']})")
        lines.append(f"| {r.get('set') or '–'} | {r[name_key]} | " + " | ".join(cells) + " |")
    return lines
