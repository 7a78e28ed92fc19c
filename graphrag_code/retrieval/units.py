"""Ranking files (or packages) by the evidence of their symbols, not by their first hit.

A question such as a commit subject ("Fix redirect loop when the session cookie expires") is
answered by a *file to change*. The legs rank symbols and modules; a file that holds several
strong hits, in several legs, is a better answer than one with a single lucky hit. Each leg's
hits are grouped by their unit (the file, or the file's folder), and a unit's score in a leg is
a decayed sum of reciprocal ranks of its hits:

    leg_score(u) = sum over u's hits h, best first, i = 0, 1, ... of  decay**i / (rrf_k + rank(h))

so `decay` 0 counts only the best hit (RRF over units), 1 counts every hit fully. The unit's
fused score is the weighted sum over legs, as in `rrf()`. Pure functions: the searcher runs the
query and builds the `Hit`s.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..errors import InvalidArgumentError

__all__ = ["FileRanking", "Unit", "UnitScore", "package_of", "rank_units", "unit_key"]


class Unit(Enum):
    """What a search ranks: symbols (and modules) as found, the files holding them, or the
    folders (packages) holding those files."""

    SYMBOL = "symbol"
    FILE = "file"
    PACKAGE = "package"


@dataclass(frozen=True)
class FileRanking:
    """How files and packages are ranked. Chosen on click's commit history (150 commits, a grid
    of 45 settings; the whole-file leg's weight on click's and requests') and reported on
    other repositories (BENCHMARKS.md §6b): every leg runs, five times deeper than for
    symbols, a file's later hits count a little, the graph leg starts from the top 10 hits of
    each other leg and counts as much as they do, and the file as a whole counts most.

    Stop 46 chose `rrf_k` and the graph leg's weight again with every other setting, offline
    on the same two histories (`benchmarks.retrieval.history_units_offline`): 10 and 0.25 lifted
    strict Acc@5 from .653 to .693 there (requests .660 -> .740, click level), and lost on the
    held-out httpx (.627 -> .620) and flask (.493 -> .453); so 60 and 1 stay."""

    depth: int = 50
    """Hits read per leg before grouping (symbol search reads 10)."""
    decay: float = 0.25
    """Weight of a unit's i-th hit in a leg: decay**i (0: its best hit only)."""
    weights: Mapping[str, float] = field(
        default_factory=lambda: {"vector": 1.0, "text": 1.0, "graph": 1.0, "file_text": 3.0}
    )
    """Fusion weight of each leg. `file_text` is the whole-file leg (each file one document,
    BM25 over files in Neo4j): 3 was best of 0-4 on click's and requests' histories together
    (strict Acc@5 .640 -> .653, Acc@10 .737 -> .794 over weight 0), held out elsewhere."""
    rrf_k: float = 60.0
    """The constant of each hit's reciprocal rank, 1 / (rrf_k + rank), as in symbol search."""
    seed_k: int = 10
    """The graph leg starts from the top `seed_k` hits of the vector and of the text leg."""

    def __post_init__(self) -> None:
        if self.seed_k < 1:
            raise InvalidArgumentError(f"seed_k must be at least 1, not {self.seed_k!r}")
        if self.depth < 1:
            raise InvalidArgumentError(f"depth must be at least 1, not {self.depth!r}")
        if not 0.0 <= self.decay <= 1.0:
            raise InvalidArgumentError(f"decay must be between 0 and 1, not {self.decay!r}")


@dataclass(frozen=True)
class UnitScore:
    """One file or package: its fused score, its rank and score in each leg (by leg score),
    and the ids of its hits, best first."""

    key: tuple[str, str]  # (repository, path of the file or folder)
    score: float
    ranks: dict[str, int]
    leg_scores: dict[str, float]
    members: tuple[str, ...]


def package_of(path: str) -> str:
    """The folder of a file (its package, for Python); '.' for the repository root."""
    return posixpath.dirname(path) or "."


def unit_key(unit: Unit) -> Callable[[Mapping[str, Any]], tuple[str, str] | None]:
    """The function that maps a leg entry (id, repo, path, ...) to its unit's key."""

    def key(entry: Mapping[str, Any]) -> tuple[str, str] | None:
        path = entry.get("path")
        if not path:
            return None  # a node without a file cannot vote for one
        repo = str(entry.get("repo") or "")
        return (repo, str(path) if unit is Unit.FILE else package_of(str(path)))

    return key


def rank_units(
    legs: Mapping[str, Sequence[Mapping[str, Any]]],
    weights: Mapping[str, float],
    key: Callable[[Mapping[str, Any]], tuple[str, str] | None],
    *,
    decay: float = 0.25,
    rrf_k: float = 60.0,
) -> list[UnitScore]:
    """Units ranked by the weighted sum over legs of their decayed reciprocal-rank sums.

    `legs` maps a leg name to its entries best first (ranks from 1, as in `rrf()`); a leg
    missing from `weights` counts 1. Ties break by key, so the order is deterministic.
    """
    per_leg: dict[str, dict[tuple[str, str], float]] = {}
    members: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for leg, entries in legs.items():
        seen: dict[tuple[str, str], int] = {}
        scores = per_leg.setdefault(leg, {})
        for rank, entry in enumerate(entries, start=1):
            unit = key(entry)
            if unit is None:
                continue
            count = seen.get(unit, 0)
            seen[unit] = count + 1
            contribution = decay**count / (rrf_k + rank)
            scores[unit] = scores.get(unit, 0.0) + contribution
            strength = weights.get(leg, 1.0) / (rrf_k + rank)
            members.setdefault(unit, []).append((-strength, str(entry["id"])))
    fused: dict[tuple[str, str], float] = {}
    for leg, scores in per_leg.items():
        weight = weights.get(leg, 1.0)
        for unit, score in scores.items():
            fused[unit] = fused.get(unit, 0.0) + weight * score
    leg_ranks = {
        leg: {unit: rank for rank, unit in enumerate(_ordered(scores), start=1)}
        for leg, scores in per_leg.items()
    }
    result = []
    for unit in _ordered(fused):
        ids: list[str] = []
        for _, node in sorted(members[unit]):
            if node not in ids:
                ids.append(node)
        result.append(
            UnitScore(
                key=unit,
                score=fused[unit],
                ranks={leg: ranks[unit] for leg, ranks in leg_ranks.items() if unit in ranks},
                leg_scores={leg: s[unit] for leg, s in per_leg.items() if unit in s},
                members=tuple(ids),
            )
        )
    return result


def _ordered(scores: Mapping[tuple[str, str], float]) -> list[tuple[str, str]]:
    return sorted(scores, key=lambda unit: (-scores[unit], unit))
