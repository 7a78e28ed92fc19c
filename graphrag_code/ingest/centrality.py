"""PageRank and degrees over CALLS + IMPORTS, computed client-side.

Open GDS pins one Neo4j version and is not in Community by default, so the ranking runs here
with numpy (power iteration, damping 0.85) and is stored on the nodes.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["Centrality", "centrality"]

Centrality = dict[str, tuple[float, int, int]]  # node id -> (pagerank, in_degree, out_degree)


def centrality(
    nodes: Iterable[str],
    edges: Iterable[tuple[str, str]],
    *,
    damping: float = 0.85,
    iterations: int = 100,
    tolerance: float = 1e-10,
    digits: int = 3,
) -> Centrality:
    """PageRank (rounded to `digits` significant digits) and degrees.

    Rounding makes reruns compare equal, and keeps an incremental run's writes small: one new
    node moves every rank by about 1/N, which changes few values at three digits (adding a
    function to a Django module: 40k node rows to write at six digits). Three digits are
    plenty for a ranking prior.

    Edges whose ends are not in `nodes` are ignored; duplicate edges count once.
    """
    ordered = sorted(set(nodes))
    position = {node: i for i, node in enumerate(ordered)}
    pairs = sorted(
        {(position[s], position[t]) for s, t in edges if s in position and t in position and s != t}
    )
    size = len(ordered)
    if size == 0:
        return {}
    # imported here: the pipeline imports this module, and numpy costs an `index` that has
    # nothing to rank (a rerun with nothing changed) 0.07-0.1 CPU s of start-up (issue 56)
    import numpy as np

    sources = np.fromiter((s for s, _ in pairs), dtype=np.int64, count=len(pairs))
    targets = np.fromiter((t for _, t in pairs), dtype=np.int64, count=len(pairs))
    out_degree = np.bincount(sources, minlength=size).astype(np.float64)
    in_degree = np.bincount(targets, minlength=size)
    rank = np.full(size, 1.0 / size)
    dangling = out_degree == 0
    safe_out = np.where(dangling, 1.0, out_degree)
    for _ in range(iterations):
        share = rank / safe_out
        incoming = np.bincount(targets, weights=share[sources], minlength=size)
        new = (1.0 - damping) / size + damping * (incoming + rank[dangling].sum() / size)
        delta = float(np.abs(new - rank).sum())
        rank = new
        if delta < tolerance:
            break
    return {
        node: (_round(float(rank[i]), digits), int(in_degree[i]), int(out_degree[i]))
        for node, i in position.items()
    }


def _round(value: float, digits: int) -> float:
    if value == 0.0:
        return 0.0
    return float(f"{value:.{digits}g}")
