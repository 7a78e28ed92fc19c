"""A certain CALLS edge lists the lines of code a default build compiles, not those it leaves out.

Edges of one (caller, callee) pair merge into one with the best tier and every line
(`linking.edges.EdgeCollector`): a call in a `#[cfg(feature = "nightly")] { … }` block (tier
`name`, off in a default build) beside the same call in the `#[cfg(not(…))]` block (`inferred`)
made rand's edge claim a certain call at a line the build does not compile. The certain edge
keeps the compiled lines; the switched-off ones are dropped from it (they stay on the pair's
edge only where no certain call of it is made).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from ...model import Edge, EdgeKind, Resolution

__all__ = ["compiled_lines"]

_CERTAIN = (Resolution.EXACT, Resolution.INFERRED)


def compiled_lines(edges: Iterable[Edge], off: Mapping[tuple[str, str], set[int]]) -> list[Edge]:
    """`edges`, each certain CALLS edge without the lines `off` lists for its pair (source,
    target): the lines of its calls in code a default build leaves out."""
    out = []
    for edge in edges:
        dropped = off.get((edge.source, edge.target))
        if dropped and edge.kind == EdgeKind.CALLS and edge.resolution in _CERTAIN:
            kept = tuple(line for line in edge.lines if line not in dropped)
            edge = replace(edge, lines=kept) if kept else edge
        out.append(edge)
    return out
