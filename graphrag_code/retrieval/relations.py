"""Relationship questions answered from the graph: callers, callees, importers, dependencies,
impact, paths, entry points.

Traversals run breadth-first, one bounded Cypher step per hop, so the fan-out of hubs is
capped and every answer knows its distance, the edges that led to it and whether all of them
were certain (exact or inferred) or possible (matched by name only, or a dispatch to an
override: a call of a base method that may run the subclass's method; for languages without
stored dispatch edges, `callers` derives these from the methods the subject overrides).

Walks cross repositories: an edge into another indexed repository (graph/crossrepo.py) is
followed like any other, and every answer names its repository. `repo` picks the subject
(looked up there first) and filters the answers; `within=True` keeps the walk itself inside
the subject's repository.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import AmbiguousSymbolError, SymbolNotFoundError
from ..graph import (
    Direction,
    EntryPoint,
    GraphReader,
    Neo4jClient,
    PathStep,
    SymbolRef,
    hop_bound,
)
from ..graph.repositories import require_repository
from ..languages import dispatch_stored
from ..linking.base import MAX_OVERRIDES
from ..location import Location
from ..model import CERTAIN_TIERS, POSSIBLE_TIERS
from .explain import CallExplanation, explain_call

__all__ = [
    "CallExplanation",
    "EntryPoint",
    "EntryPoints",
    "PathResult",
    "PathStep",
    "Related",
    "Relations",
    "RelationsResult",
    "SymbolRef",
]

_MAX_DEPTH = 6


@dataclass(frozen=True)
class Related:
    """A node reached from the subject, with how it was reached."""

    id: str  # a code node's id; an external target's qualified name
    qualified_name: str
    kind: str | None  # None for an external target
    location: Location | None  # None for an external target
    distance: int
    edge: str  # the relationship type of the last step
    resolution: str | None  # of the last step: a `Resolution` value (None: not CALLS)
    certain: bool  # every step of the path was exact or inferred
    via: tuple[str, ...]  # qualified names from the subject to this node
    lines: tuple[int, ...] = ()
    external: bool = False
    why: str | None = None  # CALLS through a value: how the last step's call reached it
    repo: str | None = None  # the repository of the node (None for an external target)


@dataclass(frozen=True)
class RelationsResult:
    subject: SymbolRef
    relation: str
    certain: list[Related]
    # reached only through name-matched edges, or (callers) through a method the subject overrides
    possible: list[Related]
    truncated: bool  # a cap on depth fan-out or result count cut the answer short
    unresolved_call_sites: int = 0  # callees: the subject's own unresolved call sites
    # callers: code with an unresolved call site of the subject's name (no edge records it)
    unresolved_candidates: list[SymbolRef] = field(default_factory=list)

    @property
    def all(self) -> list[Related]:
        return sorted(self.certain + self.possible, key=lambda r: (r.distance, r.qualified_name))


@dataclass(frozen=True)
class PathResult:
    """The shortest chain from `source` to `target`: `steps[0]` is the source, and each
    later step holds the edge that led to it ([] when no chain exists)."""

    source: SymbolRef
    target: SymbolRef
    steps: list[PathStep]

    @property
    def found(self) -> bool:
        return bool(self.steps)

    @property
    def certain(self) -> bool:
        """No edge of the chain is possible (a name match, a dispatch to an override)."""
        return all(step.certain for step in self.steps)

    @property
    def possible_steps(self) -> int:
        """How many edges of the chain are possible rather than certain."""
        return sum(not step.certain for step in self.steps)


@dataclass(frozen=True)
class EntryPoints:
    roots: list[EntryPoint]  # public functions and methods nothing calls but that call others
    central: list[EntryPoint]  # the highest PageRank


def _from(subject: SymbolRef) -> dict[str, tuple[str, ...]]:
    """A walk's start: the subject alone, its path just its own name."""
    return {subject.id: (subject.qualified_name,)}


class Relations:
    """Relationship queries on one database (every read in a read transaction)."""

    def __init__(self, client: Neo4jClient, *, limit_per_node: int = 200, limit: int = 500) -> None:
        self.client = client
        self.reader = GraphReader(client)
        self.limit_per_node = limit_per_node
        self.limit = limit

    # -- naming -------------------------------------------------------------------------------
    def resolve(self, name: str, *, repo: str | None = None) -> SymbolRef:
        """The one node `name` refers to (qualified name, short name, dotted suffix, path).

        An ambiguous short name raises `AmbiguousSymbolError` listing the candidates; a name
        defined again in one file (a property's setter, `@overload` variants) is not
        ambiguous: it is its first definition, where the calls to it land.
        """
        matches = self.reader.resolve_symbol(name, repo=repo, limit=50)
        if not matches:
            if repo is not None:
                # a misspelt --repo, not a missing symbol (read only when nothing matched)
                require_repository(self.client, repo)
            raise SymbolNotFoundError(name, repo=repo)
        best = [match.symbol for match in matches if match.rank == matches[0].rank]
        if len(best) > 1:
            raise AmbiguousSymbolError(
                name, [f"{s.qualified_name} ({s.repo}: {s.location.path})" for s in best]
            )
        return best[0]

    def subject(
        self, name: str, *, repo: str | None, within: bool, lookup: str | None = None
    ) -> SymbolRef:
        """The subject of a walk: `name` in `repo` (or `lookup`, where a front end has chosen
        the repository to look in); without one there (and not `within`), in any
        repository, since `repo` then only filters the answers."""
        where = repo or lookup
        try:
            return self.resolve(name, repo=where)
        except SymbolNotFoundError as missing:
            if where is None or within:
                raise
            try:
                return self.resolve(name)
            except SymbolNotFoundError:
                raise missing from None  # the error names the repository asked

    # -- traversals ---------------------------------------------------------------------------
    def _walk(
        self,
        start: Mapping[str, tuple[str, ...]],
        *,
        types: Sequence[str],
        direction: Direction,
        depth: int,
        possible_start: Mapping[str, tuple[str, ...]] | None = None,
        within: str | None = None,
    ) -> tuple[list[Related], bool]:
        """Breadth first from the `start` nodes (id -> the qualified names of the path that
        reached it, ending with its own); what `possible_start` nodes reach is possible."""
        depth = hop_bound(depth, maximum=_MAX_DEPTH)
        seen = set(start)
        frontier: dict[str, tuple[tuple[str, ...], bool]] = {
            node: (via, True) for node, via in start.items()
        }
        for node, via in (possible_start or {}).items():
            if node not in seen:
                seen.add(node)
                frontier[node] = (via, False)
        found: list[Related] = []
        truncated = False
        for distance in range(1, depth + 1):
            if not frontier:
                break
            neighbours = self.reader.neighbours(
                list(frontier),
                types=types,
                direction=direction,
                limit_per_node=self.limit_per_node + 1,
                within=within,
            )
            per_node: dict[str, int] = {}
            next_frontier: dict[str, tuple[tuple[str, ...], bool]] = {}
            for step in neighbours:
                per_node[step.from_id] = per_node.get(step.from_id, 0) + 1
                if per_node[step.from_id] > self.limit_per_node:
                    truncated = True
                    continue
                if step.id in seen:
                    continue
                seen.add(step.id)
                via, certain_so_far = frontier[step.from_id]
                certain = certain_so_far and step.resolution not in POSSIBLE_TIERS
                related = Related(
                    id=step.id,
                    qualified_name=step.qualified_name,
                    kind=step.kind,
                    location=step.location,
                    distance=distance,
                    edge=step.edge,
                    resolution=step.resolution,
                    certain=certain,
                    via=(*via, step.qualified_name),
                    lines=step.lines,
                    external=step.external,
                    why=step.via,
                    repo=step.repo,
                )
                found.append(related)
                if not related.external:
                    next_frontier[step.id] = (related.via, certain)
                if len(found) >= self.limit:
                    return found, True
            frontier = next_frontier
        return found, truncated

    def _result(
        self,
        subject: SymbolRef,
        relation: str,
        found: list[Related],
        truncated: bool,
        repo: str | None = None,
        **extra: Any,
    ) -> RelationsResult:
        if repo is not None:  # the answers in `repo` (and external targets), whatever the walk
            found = [r for r in found if r.external or r.repo == repo]
        certain = [r for r in found if r.certain]
        possible = [r for r in found if not r.certain]
        return RelationsResult(subject, relation, certain, possible, truncated, **extra)

    def callers(
        self,
        name: str,
        *,
        depth: int = 1,
        repo: str | None = None,
        within: bool = False,
        lookup: str | None = None,
    ) -> RelationsResult:
        """Who calls `name` (transitively up to `depth`), plus code whose unresolved call
        sites use the same name (possible callers no edge records).

        Callers of a method that `name` overrides are possible callers too: `self.connect()`
        in a base class resolves to the base's `connect`, yet runs a subclass's override on
        the subclass's instances. Their path starts with the overridden method.
        """
        subject = self.subject(name, repo=repo, within=within, lookup=lookup)
        scope = subject.repo if within else None
        found, truncated = self._walk(
            _from(subject), types=["CALLS"], direction="in", depth=depth, within=scope
        )
        overridden = self.reader.overridden_methods(subject.id, stored=dispatch_stored())
        if overridden:
            through, cut = self._walk(
                {base.id: (subject.qualified_name, base.qualified_name) for base in overridden},
                types=["CALLS"], direction="in", depth=depth, within=scope,
            )  # fmt: skip
            truncated = truncated or cut
            seen = {subject.id} | {related.id for related in found}
            found += [replace(r, certain=False) for r in through if r.id not in seen]
        short = subject.qualified_name.rsplit(".", 1)[-1]
        candidates = self.reader.unresolved_callers(short, repo=subject.repo)
        return self._result(
            subject, "callers", found, truncated, repo, unresolved_candidates=candidates
        )

    def _one_way(
        self,
        name: str,
        edge: str,
        direction: Direction,
        *,
        depth: int,
        repo: str | None,
        within: bool,
        lookup: str | None,
    ) -> tuple[SymbolRef, list[Related], bool]:
        """The subject and a walk along one edge type: what callees, importers and
        dependencies share."""
        subject = self.subject(name, repo=repo, within=within, lookup=lookup)
        found, truncated = self._walk(
            _from(subject), types=[edge], direction=direction, depth=depth,
            within=subject.repo if within else None,
        )  # fmt: skip
        return subject, found, truncated

    def callees(
        self,
        name: str,
        *,
        depth: int = 1,
        repo: str | None = None,
        within: bool = False,
        lookup: str | None = None,
    ) -> RelationsResult:
        """What `name` calls (transitively up to `depth`), internal and external."""
        subject, found, truncated = self._one_way(
            name, "CALLS", "out", depth=depth, repo=repo, within=within, lookup=lookup
        )
        unresolved = self.reader.unresolved_call_count(subject.id)
        return self._result(
            subject, "callees", found, truncated, repo, unresolved_call_sites=unresolved
        )

    def importers(
        self,
        module: str,
        *,
        depth: int = 1,
        repo: str | None = None,
        within: bool = False,
        lookup: str | None = None,
    ) -> RelationsResult:
        """Modules that import `module` (directly, or transitively up to `depth`)."""
        subject, found, truncated = self._one_way(
            module, "IMPORTS", "in", depth=depth, repo=repo, within=within, lookup=lookup
        )
        return self._result(subject, "importers", found, truncated, repo)

    def dependencies(
        self,
        module: str,
        *,
        depth: int = 1,
        repo: str | None = None,
        within: bool = False,
        lookup: str | None = None,
    ) -> RelationsResult:
        """What `module` imports, internal modules and external packages."""
        subject, found, truncated = self._one_way(
            module, "IMPORTS", "out", depth=depth, repo=repo, within=within, lookup=lookup
        )
        return self._result(subject, "dependencies", found, truncated, repo)

    def impact(
        self,
        path_or_symbol: str,
        *,
        depth: int = 3,
        repo: str | None = None,
        within: bool = False,
        lookup: str | None = None,
    ) -> RelationsResult:
        """What may break if `path_or_symbol` changes: everything that imports, calls,
        subclasses or uses it or anything it defines, transitively, with distances.

        Both ways of dispatch are possible impact: the callers of a base method that an
        override receives (the dispatch edges arriving at the override), and, for a changed
        base method, the callers of its overrides (they run code that honours its contract).
        """
        subject = self.subject(path_or_symbol, repo=repo, within=within, lookup=lookup)
        start = self.reader.descendants(subject.id)
        overrides = self.reader.overriding_methods(start, limit=MAX_OVERRIDES)
        found, truncated = self._walk(
            dict.fromkeys(start, (subject.qualified_name,)),
            types=["IMPORTS", "CALLS", "INHERITS", "USES_TYPE"], direction="in", depth=depth,
            possible_start={
                o.id: (subject.qualified_name, o.qualified_name)
                for found_overrides in overrides.values() for o in found_overrides
            },
            within=subject.repo if within else None,
        )  # fmt: skip
        return self._result(subject, "impact", found, truncated, repo)

    def path(
        self, source: str, target: str, *, repo: str | None = None, within: bool = False
    ) -> PathResult:
        """The shortest chain of calls/imports/definitions from `source` to `target`: of
        certain calls when one exists, else the shortest through possible calls (each such
        step says why: `PathStep.certain`, `.why`, `PathResult.possible_steps`); through other
        repositories unless `within` (then inside the source's repository)."""
        a = self.subject(source, repo=repo, within=within)
        b = self.subject(target, repo=repo, within=within)
        if a.id == b.id:  # Neo4j's shortestPath refuses equal ends; the path is the node
            return PathResult(
                a, b, [PathStep(a.id, a.qualified_name, a.kind, a.location, None, None, (), a.repo)]
            )
        inside = a.repo if within else None
        steps = self.reader.shortest_path(a.id, b.id, tiers=CERTAIN_TIERS, within=inside)
        return PathResult(a, b, steps or self.reader.shortest_path(a.id, b.id, within=inside))

    def explain(self, source: str, target: str, *, repo: str | None = None) -> CallExplanation:
        """Why `source` calls `target`: by name, by a type, or through which value ("via the
        return value of `factory`"). `target` may name an external (`<builtin>.map`)."""
        caller = self.resolve(source, repo=repo)
        edge = self.reader.call_edge(caller.id, target)  # an external's qualified name
        if edge is None:
            try:
                callee = self.resolve(target, repo=repo)
            except SymbolNotFoundError:
                return explain_call(caller, target, None)
            edge = self.reader.call_edge(caller.id, callee.id)
            target = callee.qualified_name
        return explain_call(caller, target, edge)

    def entry_points(self, repo: str, *, limit: int = 20) -> EntryPoints:
        """Roots (public code nothing calls) and the most central symbols of `repo`."""
        roots, central = self.reader.entry_points(repo, limit=limit)
        if not roots and not central:
            require_repository(self.client, repo)  # else empty tables for a misspelt name
        return EntryPoints(roots=roots, central=central)
