"""Relationship questions answered from the graph: callers, callees, importers, dependencies,
impact, paths, entry points.

Traversals run breadth-first, one bounded Cypher step per hop, so the fan-out of hubs is
capped and every answer knows its distance, the edges that led to it and whether all of them
were certain (exact or inferred) or possible (matched by name only, or, for callers, a call
to a method the subject overrides).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import AmbiguousSymbolError, SymbolNotFoundError
from ..graph.client import Neo4jClient
from ..graph.queries import hop_bound, load_query

__all__ = [
    "EntryPoints",
    "PathResult",
    "Related",
    "Relations",
    "RelationsResult",
    "SymbolRef",
]

_MAX_DEPTH = 6


@dataclass(frozen=True)
class SymbolRef:
    """A code node, as resolved from a user-given name."""

    id: str
    qualified_name: str
    kind: str
    path: str
    repo: str
    start_line: int | None = None
    end_line: int | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}" if self.start_line else self.path


@dataclass(frozen=True)
class Related:
    """A node reached from the subject, with how it was reached."""

    id: str
    qualified_name: str
    kind: str | None
    path: str | None
    start_line: int | None
    distance: int
    edge: str  # the relationship type of the last step
    resolution: str | None  # of the last step: exact, inferred, name (None for non-call edges)
    certain: bool  # every step of the path was exact or inferred
    via: tuple[str, ...]  # qualified names from the subject to this node
    lines: tuple[int, ...] = ()
    external: bool = False

    @property
    def location(self) -> str:
        if not self.path:
            return "(external)"
        return f"{self.path}:{self.start_line}" if self.start_line else self.path


@dataclass(frozen=True)
class RelationsResult:
    subject: SymbolRef
    relation: str
    certain: list[Related]
    # reached only through name-matched edges, or (callers) through a method the subject overrides
    possible: list[Related]
    truncated: bool  # a cap on depth fan-out or result count cut the answer short
    unresolved_call_sites: int = 0  # callees: the subject's own unresolved call sites
    unresolved_candidates: list[dict[str, Any]] = field(default_factory=list)  # callers

    @property
    def all(self) -> list[Related]:
        return sorted(self.certain + self.possible, key=lambda r: (r.distance, r.qualified_name))


@dataclass(frozen=True)
class PathResult:
    source: SymbolRef
    target: SymbolRef
    nodes: list[dict[str, Any]]
    relationships: list[dict[str, Any]]

    @property
    def found(self) -> bool:
        return bool(self.nodes)

    @property
    def certain(self) -> bool:
        return all(r.get("resolution") != "name" for r in self.relationships)


@dataclass(frozen=True)
class EntryPoints:
    roots: list[dict[str, Any]]
    central: list[dict[str, Any]]


def _from(subject: SymbolRef) -> dict[str, tuple[str, ...]]:
    """A walk's start: the subject alone, its path just its own name."""
    return {subject.id: (subject.qualified_name,)}


class Relations:
    """Relationship queries on one database (every read in a read transaction)."""

    def __init__(self, client: Neo4jClient, *, limit_per_node: int = 200, limit: int = 500) -> None:
        self.client = client
        self.limit_per_node = limit_per_node
        self.limit = limit

    # -- naming -------------------------------------------------------------------------------
    def resolve(self, name: str, *, repo: str | None = None) -> SymbolRef:
        """The one node `name` refers to (qualified name, short name, dotted suffix, path).

        An ambiguous short name raises `AmbiguousSymbolError` listing the candidates.
        """
        rows = self.client.read(
            load_query("relations/resolve_symbol"), {"name": name, "repo": repo, "limit": 50}
        )
        if not rows:
            raise SymbolNotFoundError(name, repo=repo)
        best = [row for row in rows if row["rank"] == rows[0]["rank"]]
        if len(best) > 1:
            raise AmbiguousSymbolError(
                name, [f"{row['qualified_name']} ({row['repo']}: {row['path']})" for row in best]
            )
        row = best[0]
        return SymbolRef(
            id=row["id"],
            qualified_name=row["qualified_name"],
            kind=row["kind"],
            path=row["path"],
            repo=row["repo"],
            start_line=row["start_line"],
            end_line=row["end_line"],
        )

    # -- traversals ---------------------------------------------------------------------------
    def _walk(
        self,
        start: Mapping[str, tuple[str, ...]],
        *,
        types: Sequence[str],
        direction: str,
        depth: int,
    ) -> tuple[list[Related], bool]:
        """Breadth first from the `start` nodes (id -> the qualified names of the path that
        reached it, ending with its own)."""
        depth = hop_bound(depth, maximum=_MAX_DEPTH)
        seen = set(start)
        frontier: dict[str, tuple[tuple[str, ...], bool]] = {
            node: (via, True) for node, via in start.items()
        }
        found: list[Related] = []
        truncated = False
        for distance in range(1, depth + 1):
            if not frontier:
                break
            rows = self.client.read(
                load_query("relations/step"),
                {
                    "ids": list(frontier),
                    "types": list(types),
                    "direction": direction,
                    "limit_per_node": self.limit_per_node + 1,
                },
            )
            per_node: dict[str, int] = {}
            next_frontier: dict[str, tuple[tuple[str, ...], bool]] = {}
            for row in rows:
                per_node[row["from_id"]] = per_node.get(row["from_id"], 0) + 1
                if per_node[row["from_id"]] > self.limit_per_node:
                    truncated = True
                    continue
                if row["id"] in seen:
                    continue
                seen.add(row["id"])
                via, certain_so_far = frontier[row["from_id"]]
                certain = certain_so_far and row["resolution"] != "name"
                related = Related(
                    id=row["id"],
                    qualified_name=row["qualified_name"],
                    kind=row["kind"],
                    path=row["path"],
                    start_line=row["start_line"],
                    distance=distance,
                    edge=row["type"],
                    resolution=row["resolution"],
                    certain=certain,
                    via=(*via, row["qualified_name"]),
                    lines=tuple(row["lines"] or ()),
                    external=bool(row["external"]),
                )
                found.append(related)
                if not related.external:
                    next_frontier[row["id"]] = (related.via, certain)
                if len(found) >= self.limit:
                    return found, True
            frontier = next_frontier
        return found, truncated

    def _result(
        self, subject: SymbolRef, relation: str, found: list[Related], truncated: bool, **extra: Any
    ) -> RelationsResult:
        certain = [r for r in found if r.certain]
        possible = [r for r in found if not r.certain]
        return RelationsResult(subject, relation, certain, possible, truncated, **extra)

    def callers(self, name: str, *, depth: int = 1, repo: str | None = None) -> RelationsResult:
        """Who calls `name` (transitively up to `depth`), plus code whose unresolved call
        sites use the same name (possible callers no edge records).

        Callers of a method that `name` overrides are possible callers too: `self.connect()`
        in a base class resolves to the base's `connect`, yet runs a subclass's override on
        the subclass's instances. Their path starts with the overridden method.
        """
        subject = self.resolve(name, repo=repo)
        found, truncated = self._walk(_from(subject), types=["CALLS"], direction="in", depth=depth)
        overridden = self.client.read(
            load_query("relations/overridden_methods"), {"id": subject.id}
        )
        if overridden:
            through, cut = self._walk(
                {row["id"]: (subject.qualified_name, row["qualified_name"]) for row in overridden},
                types=["CALLS"], direction="in", depth=depth,
            )  # fmt: skip
            truncated = truncated or cut
            seen = {subject.id} | {related.id for related in found}
            found += [replace(r, certain=False) for r in through if r.id not in seen]
        short = subject.qualified_name.rsplit(".", 1)[-1]
        candidates = self.client.read(
            load_query("relations/unresolved_callers"), {"name": short, "repo": subject.repo}
        )
        return self._result(subject, "callers", found, truncated, unresolved_candidates=candidates)

    def callees(self, name: str, *, depth: int = 1, repo: str | None = None) -> RelationsResult:
        """What `name` calls (transitively up to `depth`), internal and external."""
        subject = self.resolve(name, repo=repo)
        found, truncated = self._walk(_from(subject), types=["CALLS"], direction="out", depth=depth)
        unresolved = self.client.read(
            load_query("relations/node_unresolved_calls"), {"id": subject.id}
        )
        return self._result(
            subject, "callees", found, truncated, unresolved_call_sites=int(unresolved[0]["n"])
        )

    def importers(self, module: str, *, depth: int = 1, repo: str | None = None) -> RelationsResult:
        """Modules that import `module` (directly, or transitively up to `depth`)."""
        subject = self.resolve(module, repo=repo)
        found, truncated = self._walk(
            _from(subject), types=["IMPORTS"], direction="in", depth=depth
        )
        return self._result(subject, "importers", found, truncated)

    def dependencies(
        self, module: str, *, depth: int = 1, repo: str | None = None
    ) -> RelationsResult:
        """What `module` imports, internal modules and external packages."""
        subject = self.resolve(module, repo=repo)
        found, truncated = self._walk(
            _from(subject), types=["IMPORTS"], direction="out", depth=depth
        )
        return self._result(subject, "dependencies", found, truncated)

    def impact(
        self, path_or_symbol: str, *, depth: int = 3, repo: str | None = None
    ) -> RelationsResult:
        """What may break if `path_or_symbol` changes: everything that imports, calls,
        subclasses or uses it or anything it defines, transitively, with distances."""
        subject = self.resolve(path_or_symbol, repo=repo)
        start = self.client.read(load_query("relations/descendants"), {"id": subject.id})[0]["ids"]
        found, truncated = self._walk(
            dict.fromkeys(start, (subject.qualified_name,)),
            types=["IMPORTS", "CALLS", "INHERITS", "USES_TYPE"], direction="in", depth=depth,
        )  # fmt: skip
        return self._result(subject, "impact", found, truncated)

    def path(self, source: str, target: str, *, repo: str | None = None) -> PathResult:
        """The shortest chain of calls/imports/definitions from `source` to `target`."""
        a = self.resolve(source, repo=repo)
        b = self.resolve(target, repo=repo)
        if a.id == b.id:  # Neo4j's shortestPath refuses equal ends; the path is the node
            node = {
                "id": a.id, "qualified_name": a.qualified_name, "kind": a.kind, "path": a.path,
                "start_line": a.start_line,
            }  # fmt: skip
            return PathResult(a, b, [node], [])
        rows = self.client.read(
            load_query("relations/shortest_path"), {"source": a.id, "target": b.id}
        )
        if not rows:
            return PathResult(a, b, [], [])
        return PathResult(a, b, rows[0]["nodes"], rows[0]["relationships"])

    def entry_points(self, repo: str, *, limit: int = 20) -> EntryPoints:
        """Roots (public code nothing calls) and the most central symbols of `repo`."""
        rows = self.client.read(
            load_query("relations/entry_points"), {"repo": repo, "limit": limit}
        )
        return EntryPoints(
            roots=[row for row in rows if row["role"] == "root"],
            central=[row for row in rows if row["role"] == "central"],
        )
