"""The code a test exercises, read off the reach graph with tiers and distances.

The reach graph is the call graph as the tests stage keeps it (REACHES edges): each node's
callees with the `Resolution.rank` of the call (`reach_rank`: a possible call counts as a name
match), plus each test's fixtures and set-ups (distance 1, with the fixture as `via`). A test
exercises a node when a path leads from the test to it; the node's tier is the rank of the
best path's weakest edge (exact > inferred > name), its distance the shortest path of that
tier — so a function reached both through a name-matched call and a chain of exact ones is
`exact`, at the exact chain's distance.

Nothing is stored per (test, node) pair: in Django that was ~2 M edges, a minute of writing.
`exercising` walks backwards from the asked-for node at query time; `reached_ranks` walks
forwards from every test at once at index time, for the one property `untested` and the
dead-code verdicts need.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..model import Resolution

__all__ = ["Exercised", "exercising", "reach_rank", "reached_ranks"]

# the tiers of a reach, surest first: the ranks of exact, inferred and name-matched calls
_TIERS = (Resolution.EXACT.rank, Resolution.INFERRED.rank, Resolution.NAME.rank)

CallGraph = Mapping[str, Sequence[tuple[str, int]]]
"""node -> (callee, rank) pairs; the rank of a reach tier (`reach_rank`)."""

CallerGraph = Mapping[str, Sequence[tuple[str, int, str | None]]]
"""node -> (caller, rank, via) pairs: the reach graph read backwards (`via`: the fixture or
set-up the caller, a test, runs the node as)."""


def reach_rank(resolution: Resolution) -> int:
    """The rank a call of `resolution` reaches with: its own for an exact, inferred or
    name-matched call; a name match's for the other possible ones (an override the call may
    reach, one of many values it may run, a function of its declared type)."""
    return max(resolution.rank, Resolution.NAME.rank)


@dataclass(frozen=True)
class Exercised:
    distance: int
    tier: int  # the `Resolution.rank` of the path's weakest edge
    via: str | None  # the fixture or set-up it was reached through ("fixture app")

    @property
    def resolution(self) -> str:
        return Resolution.of_rank(self.tier).value


def exercising(target: str, callers: CallerGraph, tests: Collection[str]) -> dict[str, Exercised]:
    """The tests (of `tests`) from which a path leads to `target`, each with its best tier
    and that tier's shortest distance: breadth first backwards, once per tier."""
    found: dict[str, Exercised] = {}
    for tier in _TIERS:
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


def reached_ranks(starts: Iterable[str], graph: CallGraph) -> dict[str, int]:
    """Node -> the best tier (a rank) by which a path of one or more steps from any of
    `starts` reaches it (a start too, when such a path leads back to one)."""
    sources = list(dict.fromkeys(starts))
    best: dict[str, int] = {}
    for tier in _TIERS:
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
