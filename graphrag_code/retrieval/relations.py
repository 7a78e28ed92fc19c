"""Relationship questions answered from the graph: the relation family (callers, callees,
importers, dependencies, impact: `relation_kinds.RELATIONS`), paths, explanations, entry points.

Traversals run breadth-first, one bounded Cypher step per hop, so the fan-out of hubs is
capped and every answer knows its distance, the edges that led to it and whether all of them
were certain (exact or inferred) or possible (matched by name only, or a dispatch to an
override: a call of a base method that may run the subclass's method; for languages without
stored dispatch edges, `callers` derives these from the methods the subject overrides).

Answers lean on certain edges: by default the walk follows only exact and inferred edges, and
possible ones (a name match, a dispatch to an override, `many`, `signature`, `partial`: tiers
that on code nobody tuned on are right less than half the time, see
benchmarks/results/dispatch_narrowing.md) are walked only when asked (`possible=True`) or when
the certain walk finds nothing; the result says which (`RelationsResult.leaned_on`).

Walks cross repositories: an edge into another indexed repository (graph/crossrepo.py) is
followed like any other, and every answer names its repository. `repo` picks the subject
(looked up there first) and filters the answers; `within=True` keeps the walk itself inside
the subject's repository.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, overload

from ..errors import AmbiguousSymbolError, InvalidArgumentError, SymbolNotFoundError
from ..graph import (
    AnswerWarning,
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
from .relation_kinds import RELATIONS, RelationKind, RelationName

__all__ = [
    "CallExplanation",
    "EntryPoint",
    "EntryPoints",
    "LeanedOn",
    "PathResult",
    "PathStep",
    "Related",
    "RelationMethod",
    "RelationQuery",
    "Relations",
    "RelationsResult",
    "SymbolRef",
]

_MAX_DEPTH = 6

LeanedOn = Literal["certain", "possible", "fallback"]
"""What an answer walked: certain edges only (the default), possible ones too because they
were asked for, or possible ones because the certain walk found nothing (`fallback`)."""


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
    leaned_on: LeanedOn = "certain"
    # why the answer may be incomplete (an interrupted indexing run): `CodeGraph` adds them
    warnings: tuple[AnswerWarning, ...] = ()

    @property
    def repos(self) -> list[str]:
        """The repositories the answer draws from: the subject's first."""
        found = [self.subject.repo] + [r.repo for r in self.certain + self.possible if r.repo]
        return list(dict.fromkeys(found))

    @property
    def fallback(self) -> bool:
        """The possible answers stand in for certain ones: the certain walk found nothing."""
        return self.leaned_on == "fallback"

    @property
    def leaning(self) -> str | None:
        """The line an answer prints when it leans on possible edges it was not asked for."""
        if not self.fallback:
            return None
        return (
            f"no certain {self.relation}; possible ones (name matches, dispatch to overrides) below"
        )

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
    warnings: tuple[AnswerWarning, ...] = ()  # `CodeGraph` adds them

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
    warnings: tuple[AnswerWarning, ...] = ()  # `CodeGraph` adds them


class RelationQuery(Protocol):
    """A relation's method: `graph.callers("Store.save", depth=2, repo="shop")`."""

    def __call__(
        self,
        name: str,
        *,
        depth: int | None = None,
        repo: str | None = None,
        within: bool = False,
        possible: bool = False,
    ) -> RelationsResult: ...


class _Relating(Protocol):
    def related(
        self,
        relation: RelationName,
        name: str,
        *,
        depth: int | None = None,
        repo: str | None = None,
        within: bool = False,
        possible: bool = False,
    ) -> RelationsResult: ...


class RelationMethod:
    """The method of one relation on a class with `related()` (`Relations`, `CodeGraph`),
    made from its `RelationKind`: `callers = RelationMethod("callers")` asks
    `self.related("callers", …)`, documented by the kind's description."""

    def __init__(self, relation: RelationName) -> None:
        self.kind = RELATIONS[relation]
        self.__doc__ = _method_doc(self.kind)

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self.kind.name:
            raise TypeError(
                f"{owner.__name__}.{name} = RelationMethod({self.kind.name!r}): a relation's "
                "method bears the relation's name"
            )

    @overload
    def __get__(self, instance: None, owner: type) -> RelationMethod: ...
    @overload
    def __get__(self, instance: _Relating, owner: type) -> RelationQuery: ...
    def __get__(self, instance: _Relating | None, owner: type) -> RelationMethod | RelationQuery:
        if instance is None:
            return self
        relation = self.kind.name

        def query(
            name: str,
            *,
            depth: int | None = None,
            repo: str | None = None,
            within: bool = False,
            possible: bool = False,
        ) -> RelationsResult:
            return instance.related(
                relation, name, depth=depth, repo=repo, within=within, possible=possible
            )

        query.__name__ = query.__qualname__ = relation
        query.__doc__ = self.__doc__
        return query


def _method_doc(kind: RelationKind) -> str:
    return (
        f"{kind.description}\n\n`depth` hops ({kind.depth} unless given); walks cross "
        "repositories: `repo` picks the subject and filters the answers, `within` keeps the "
        "walk in the subject's repository. Certain edges only, unless `possible` (then possible "
        "ones too, in `possible`) or nothing certain is found (then the possible ones, "
        "`leaned_on='fallback'`)."
    )


def _answers(found: Sequence[Related], repo: str | None) -> bool:
    """Whether a walk found anything to answer with (in `repo`, where one filters)."""
    return any(r.external or repo is None or r.repo == repo for r in found)


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
        if not name.strip():  # an argument that cannot work, not a symbol missing (exit 2)
            raise InvalidArgumentError("empty name: give a qualified name, short name or path")
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
        possible: bool = True,
    ) -> tuple[list[Related], bool]:
        """Breadth first from the `start` nodes (id -> the qualified names of the path that
        reached it, ending with its own); what `possible_start` nodes reach is possible.
        Without `possible`, only certain edges are followed."""
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
                tiers=None if possible else CERTAIN_TIERS,
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

    def related(
        self,
        relation: RelationName,
        name: str,
        *,
        depth: int | None = None,
        repo: str | None = None,
        within: bool = False,
        lookup: str | None = None,
        possible: bool = False,
    ) -> RelationsResult:
        """The walk `RELATIONS[relation]` defines from `name`, up to `depth` hops (by default
        the relation's own); `repo` picks the subject and filters the answers, `within` keeps
        the walk in the subject's repository, `lookup` (a front end's choice) is where the
        subject is looked up. Certain edges only unless `possible`, or unless the certain
        walk finds nothing (then the possible answers, `leaned_on="fallback"`)."""
        kind = RELATIONS.get(relation)
        if kind is None:
            raise InvalidArgumentError(
                f"no relation {relation!r}: one of {', '.join(RELATIONS)} is asked by name"
            )
        subject = self.subject(name, repo=repo, within=within, lookup=lookup)
        hops = kind.depth if depth is None else depth
        scope = subject.repo if within else None
        found, truncated = self._reach(kind, subject, hops, scope, possible=possible)
        leaned_on: LeanedOn = "possible" if possible else "certain"
        if not possible and not _answers(found, repo):
            every, cut = self._reach(kind, subject, hops, scope, possible=True)
            if _answers(every, repo):
                found, truncated, leaned_on = every, cut, "fallback"
        extra: dict[str, Any] = {"leaned_on": leaned_on}
        if kind.unresolved == "candidates":
            short = subject.qualified_name.rsplit(".", 1)[-1]
            extra["unresolved_candidates"] = self.reader.unresolved_callers(
                short, repo=subject.repo
            )
        elif kind.unresolved == "sites":
            extra["unresolved_call_sites"] = self.reader.unresolved_call_count(subject.id)
        return self._result(subject, relation, found, truncated, repo, **extra)

    def _reach(
        self,
        kind: RelationKind,
        subject: SymbolRef,
        hops: int,
        scope: str | None,
        *,
        possible: bool,
    ) -> tuple[list[Related], bool]:
        """What the relation reaches from `subject`: along certain edges only, or (`possible`)
        along every edge and from the overrides and overridden methods that bear on it."""
        start = self.reader.descendants(subject.id) if kind.whole else [subject.id]
        possible_start = None
        if kind.whole and possible:  # what overrides a method it defines is possible impact
            overrides = self.reader.overriding_methods(start, limit=MAX_OVERRIDES)
            possible_start = {
                o.id: (subject.qualified_name, o.qualified_name)
                for found_overrides in overrides.values() for o in found_overrides
            }  # fmt: skip
        found, truncated = self._walk(
            dict.fromkeys(start, (subject.qualified_name,)),
            types=[edge.value for edge in kind.edges], direction=kind.direction, depth=hops,
            possible_start=possible_start, within=scope, possible=possible,
        )  # fmt: skip
        if kind.overridden and possible:
            through, cut = self._through_overridden(subject, kind, hops, scope, found)
            found, truncated = found + through, truncated or cut
        return found, truncated

    def _through_overridden(
        self,
        subject: SymbolRef,
        kind: RelationKind,
        depth: int,
        scope: str | None,
        found: Sequence[Related],
    ) -> tuple[list[Related], bool]:
        """What reaches the methods `subject` overrides and not the subject itself: possible,
        each path starting with the overridden method (for languages without stored dispatch
        edges these are the only record of the dispatch)."""
        overridden = self.reader.overridden_methods(subject.id, stored=dispatch_stored())
        if not overridden:
            return [], False
        through, cut = self._walk(
            {base.id: (subject.qualified_name, base.qualified_name) for base in overridden},
            types=[edge.value for edge in kind.edges], direction=kind.direction, depth=depth,
            within=scope,
        )  # fmt: skip
        seen = {subject.id} | {related.id for related in found}
        return [replace(r, certain=False) for r in through if r.id not in seen], cut

    callers = RelationMethod("callers")
    callees = RelationMethod("callees")
    importers = RelationMethod("importers")
    dependencies = RelationMethod("dependencies")
    impact = RelationMethod("impact")

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
