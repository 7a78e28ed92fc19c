"""The code a test exercises, read off the reach graph with tiers and distances.

The reach graph is the call graph as the tests stage keeps it (REACHES edges): each node's
callees with a tier, plus each test's fixtures and set-ups (distance 1, with the fixture as
`via`). A test exercises a node when a path leads from the test to it; the node's tier is the
best path's weakest edge (exact > inferred > name), its distance the shortest path of that
tier — so a function reached both through a name-matched call and a chain of exact ones is
`exact`, at the exact chain's distance.

Nothing is stored per (test, node) pair: in Django that was ~2 M edges, a minute of writing.
`exercising` walks backwards from the asked-for node at query time; `reached_tiers` walks
forwards from every test at once at index time, for the one property `untested` and the
dead-code verdicts need.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "EXACT", "INFERRED", "NAME", "TIERS", "TIER_OF", "Exercised", "exercising", "reached_tiers",
]  # fmt: skip

EXACT, INFERRED, NAME = 3, 2, 1
TIERS = {EXACT: "exact", INFERRED: "inferred", NAME: "name"}
TIER_OF = {name: tier for tier, name in TIERS.items()}

CallGraph = Mapping[str, Sequence[tuple[str, int]]]
"""node -> (callee, tier) pairs; tier is EXACT, INFERRED or NAME."""

CallerGraph = Mapping[str, Sequence[tuple[str, int, str | None]]]
"""node -> (caller, tier, via) pairs: the reach graph read backwards (`via`: the fixture or
set-up the caller, a test, runs the node as)."""


@dataclass(frozen=True)
class Exercised:
    distance: int
    tier: int
    via: str | None  # the fixture or set-up it was reached through ("fixture app")

    @property
    def resolution(self) -> str:
        return TIERS[self.tier]


def exercising(target: str, callers: CallerGraph, tests: Collection[str]) -> dict[str, Exercised]:
    """The tests (of `tests`) from which a path leads to `target`, each with its best tier
    and that tier's shortest distance: breadth first backwards, once per tier."""
    found: dict[str, Exercised] = {}
    for tier in (EXACT, INFERRED, NAME):
        seen = {target}
        frontier = [target]
        distance = 0
        while frontier:
            distance += 1
            step: list[str] = []
            for node in frontier:
                for caller, edge_tier, via in callers.get(node, ()):
                    if edge_tier < tier or caller in seen:
                        continue
                    seen.add(caller)
                    step.append(caller)
                    if caller in tests and caller not in found:
                        found[caller] = Exercised(distance, tier, via)
            frontier = step
    found.pop(target, None)
    return found


def reached_tiers(starts: Iterable[str], graph: CallGraph) -> dict[str, int]:
    """Node -> the best tier by which a path of one or more steps from any of `starts` reaches
    it (a start too, when such a path leads back to one)."""
    sources = list(dict.fromkeys(starts))
    best: dict[str, int] = {}
    for tier in (EXACT, INFERRED, NAME):
        seen: set[str] = set()
        frontier = sources
        while frontier:
            step: list[str] = []
            for node in frontier:
                for callee, edge_tier in graph.get(node, ()):
                    if edge_tier >= tier and callee not in seen:
                        seen.add(callee)
                        best.setdefault(callee, tier)
                        step.append(callee)
            frontier = step
    return best
