"""The blast radius of a change: what calls, imports, subclasses or uses each changed
symbol, to a depth, breadth first (one bounded Cypher step per hop), with the path that
connects each affected symbol to the change.

Besides the edges: importers of a module-level symbol by name are affected at distance 1, a
method's overridden base methods pass their callers on as *possible* callers (the call may
dispatch to the override; Python stores these as CALLS edges of tier `dispatch`), and a
removed symbol's possible callers are the code with an unresolved call of its name. Test
code is left to the tests to run. Ranked by certainty, distance, the last edge's tier and
centrality (a low-precision tier never ranks a symbol above a certain one); cut at `limit`
with a flag.

What a possible edge reaches is listed, as possible, but by default the walk goes no further
from it (`BlastOptions.possible` lets it fan out): on attrs 24.2.0 one body edit reached 16
unrelated validator factories through `partial` edges that way (issue 50).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..conventions import reach_rank
from ..graph import GraphReader
from ..graph.records import ImpactStep
from ..languages import dispatch_stored
from ..model import POSSIBLE_TIERS as POSSIBLE
from ..model import Resolution
from .records import Affected, ChangedSymbol

__all__ = ["BlastOptions", "blast_radius"]

# exact first, then inferred, then every possible resolution alike (a name match's rank)
_TIER = {None: 0} | {r.value: Resolution.EXACT.rank - reach_rank(r) for r in Resolution}


@dataclass(frozen=True)
class BlastOptions:
    depth: int = 2
    limit: int = 200  # affected symbols at most (the result says when it was cut)
    limit_per_node: int = 100  # inbound edges followed per node and step
    possible: bool = False  # walk on from what a possible edge reached (else: list it only)


@dataclass
class _Reach:
    path: tuple[str, ...]
    certain: bool
    changed: str


def _rank(affected: Affected) -> tuple[int, int, int, float, str]:
    return (
        0 if affected.certain else 1,
        affected.distance,
        _TIER.get(affected.resolution, 0),
        -affected.pagerank,
        affected.qualified_name,
    )


def blast_radius(
    reader: GraphReader,
    repo: str,
    changes: Sequence[ChangedSymbol],
    modules: Mapping[str, tuple[str, str]],
    options: BlastOptions,
) -> tuple[list[Affected], bool]:
    """The affected code of `changes` (ranked) and whether the size cap cut it. `modules`:
    path -> (module name, module id) of the changed files the graph holds."""
    changed_ids = {c.id for c in changes if c.id is not None}
    seen = set(changed_ids)
    found: list[Affected] = []
    truncated = False
    frontier: dict[str, _Reach] = {
        c.id: _Reach((c.qualified_name,), True, c.qualified_name)
        for c in changes
        if c.id is not None
    }

    # node id -> its place in `found`, while only possible edges have reached it: a certain
    # reach later (a longer certain chain) takes its place and is walked on from
    possible_only: dict[str, int] = {}

    def take(step: ImpactStep, reach: _Reach, distance: int, certain: bool) -> _Reach | None:
        nonlocal truncated
        node = step.symbol
        upgraded = possible_only.pop(node.id, None) if certain else None
        if (node.id in seen and upgraded is None) or step.test_code:
            return None
        if upgraded is None and len(found) >= options.limit:
            seen.add(node.id)
            truncated = True
            return None
        seen.add(node.id)
        path = (*reach.path, node.qualified_name)
        affected = Affected(
            id=node.id, qualified_name=node.qualified_name, kind=node.kind,
            location=node.location, distance=distance, certain=certain, edge=step.edge,
            resolution=step.resolution, changed=reach.changed, path=path,
            pagerank=step.pagerank,
        )  # fmt: skip
        if upgraded is not None:
            found[upgraded] = affected
        else:
            found.append(affected)
            if not certain:
                possible_only[node.id] = len(found) - 1
        return _Reach(path, certain, reach.changed)

    first: list[tuple[ImpactStep, _Reach, bool]] = []
    named = []
    for change in changes:
        module = modules.get(change.location.path)
        if change.id is None or module is None or change.kind not in ("Function", "Class"):
            continue
        if change.qualified_name.rpartition(".")[0] == module[0]:
            named.append((change.id, module[1], change.qualified_name.rsplit(".", 1)[-1]))
    for step in reader.name_importers(named) if named else []:
        first.append((step, frontier[step.from_id], True))
    stored = dispatch_stored()
    for change in changes:
        if change.id is None or change.kind != "Method":
            continue
        for base in reader.overridden_methods(change.id, stored=stored):
            reach = _Reach(
                (change.qualified_name, base.qualified_name), False, change.qualified_name
            )
            for step in reader.affected_step([base.id], limit_per_node=options.limit_per_node):
                if step.edge == "CALLS":
                    first.append((step, reach, False))
    for distance in range(1, options.depth + 1):
        if not frontier:
            break
        steps = reader.affected_step(list(frontier), limit_per_node=options.limit_per_node)
        candidates = [
            (s, frontier[s.from_id], frontier[s.from_id].certain and s.resolution not in POSSIBLE)
            for s in steps
        ]
        if distance == 1:
            candidates = candidates + first
        candidates.sort(key=lambda item: (not item[2], item[0].symbol.qualified_name))
        following: dict[str, _Reach] = {}
        for step, reach, certain in candidates:
            taken = take(step, reach, distance, certain)
            # a module reached by a call from its top level passes nothing on to its importers
            if taken is None or (step.symbol.kind == "Module" and step.edge != "IMPORTS"):
                continue
            if certain or options.possible:
                following[step.symbol.id] = taken
        frontier = following
    for change in changes:
        if change.change != "removed" or change.kind == "Module" or change.id is not None:
            continue
        for caller in reader.unresolved_callers(
            change.qualified_name.rsplit(".", 1)[-1], repo=repo
        ):
            if caller.id in seen:
                continue
            seen.add(caller.id)
            found.append(
                Affected(
                    id=caller.id, qualified_name=caller.qualified_name, kind=caller.kind,
                    location=caller.location, distance=1, certain=False, edge="CALLS?",
                    resolution=None, changed=change.qualified_name,
                    path=(change.qualified_name, caller.qualified_name),
                )
            )  # fmt: skip
    return sorted(found, key=_rank), truncated
