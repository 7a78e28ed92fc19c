"""The code a test exercises: its static call closure, with tiers and distances.

From the test (distance 0) and the fixtures and set-ups it runs (distance 1), breadth first
along the call graph. A node's tier is the best path's weakest edge (exact > inferred >
name), its distance the shortest path of that tier — so a function reached both through a
name-matched call and a chain of exact ones is `exact`, at the exact chain's distance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["EXACT", "INFERRED", "NAME", "TIERS", "Exercised", "exercised"]

EXACT, INFERRED, NAME = 3, 2, 1
TIERS = {EXACT: "exact", INFERRED: "inferred", NAME: "name"}

CallGraph = Mapping[str, Sequence[tuple[str, int]]]
"""node -> (callee, tier) pairs; tier is EXACT, INFERRED or NAME."""


@dataclass(frozen=True)
class Exercised:
    distance: int
    tier: int
    via: str | None  # the fixture or set-up it was reached through ("fixture app")

    @property
    def resolution(self) -> str:
        return TIERS[self.tier]


def exercised(
    test: str,
    seeds: Sequence[tuple[str, str, int]],
    graph: CallGraph,
    *,
    limit: int | None = None,
    possible_limit: int | None = None,
) -> tuple[dict[str, Exercised], bool]:
    """Everything `test` reaches (itself excluded), and whether a limit cut it short.
    `seeds`: (node, via, tier) of the fixtures and set-ups it runs. `limit` caps the certain
    (exact and inferred) part, `possible_limit` the part reached only through name-matched
    calls, nearest first: in a large code base a few name matches lead into most of it."""
    found: dict[str, Exercised] = {}
    cut = False
    counts = {True: 0, False: 0}  # certain?, nodes added
    for tier in (EXACT, INFERRED, NAME):
        certain = tier != NAME
        cap = limit if certain else possible_limit
        # level 1: the fixtures and set-ups of this tier, then what the test itself calls
        first = {seed: via for seed, via, seed_tier in seeds if seed_tier >= tier}
        first.pop(test, None)
        seen = {test, *first}
        frontier: dict[str, str | None] = {test: None}
        distance = 0
        while frontier:
            if cap is not None and counts[certain] >= cap:
                cut = True
                break
            distance += 1
            step: dict[str, str | None] = dict(first) if distance == 1 else {}
            for node, via in frontier.items():
                for callee, edge_tier in graph.get(node, ()):
                    if edge_tier >= tier and callee not in seen:
                        seen.add(callee)
                        step[callee] = via
            for node, via in step.items():
                if node in found:
                    continue
                if cap is not None and counts[certain] >= cap:
                    cut = True
                    break
                found[node] = Exercised(distance, tier, via)
                counts[certain] += 1
            frontier = step
    return found, cut
