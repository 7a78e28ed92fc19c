"""Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009).

score(d) = Σ_leg weight_leg / (k + rank_leg(d)), ranks counted from 1. Pure: the inputs are
never mutated, and ties break deterministically (best single rank, then id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["rrf"]


def rrf(
    rankings: Mapping[str, Sequence[str]],
    *,
    k: float = 60.0,
    weights: Mapping[str, float] | None = None,
) -> list[tuple[str, float]]:
    """Fuse ranked id lists (best first) into one list of (id, score), best first.

    `rankings` maps a leg name to its ids; an id repeated within one list counts at its first
    position. `weights` defaults to 1.0 per leg; a leg with weight 0 is ignored.
    """
    if k < 0:
        raise ValueError("k must be non-negative")
    scores: dict[str, float] = {}
    best_rank: dict[str, int] = {}
    for leg, ids in rankings.items():
        weight = 1.0 if weights is None else float(weights.get(leg, 1.0))
        if weight < 0:
            raise ValueError(f"weight of leg {leg!r} must be non-negative")
        if weight == 0:
            continue
        seen: set[str] = set()
        for position, item in enumerate(ids, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weight / (k + position)
            best_rank[item] = min(best_rank.get(item, position), position)
    return sorted(scores.items(), key=lambda pair: (-pair[1], best_rank[pair[0]], pair[0]))
