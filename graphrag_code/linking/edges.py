"""The records every language's linker fills: node ids, the edges of one file, and the
collector that merges repeated edges. Language-neutral: each language's linker (under
`graphrag_code.languages`) produces them, the ingest stages consume them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from ..ids import module_id, symbol_id
from ..model import Edge, EdgeKind, ParsedFile, Resolution
from .consulted import ConsultedKeys
from .index import RepositoryIndex

__all__ = ["EdgeCollector", "FileLinks", "NodeIds", "UnresolvedCalls"]

# possible edges PageRank leaves out: fan-outs to what a call *may* run
_UNRANKED = frozenset(
    {Resolution.DISPATCH, Resolution.MANY, Resolution.SIGNATURE, Resolution.PARTIAL}
)
_MAX_REASONS = 3


@dataclass(frozen=True)
class FileLinks:
    """Everything linking one file produced, plus what it consulted (for incremental runs).

    `edge_counts` and `rank_edges` summarise `edges`, so the incremental state can drop the
    edges of files that are not linked again (`for_state`).
    """

    path: str
    edges: tuple[Edge, ...] = ()
    unresolved_calls: dict[str, int] = field(default_factory=dict)  # node id -> call sites
    # modules and value-flow parts (`FLOWS_KEY` keys) its linking read, as hashes
    modules_consulted: ConsultedKeys = field(default_factory=ConsultedKeys)
    names_consulted: frozenset[str] = frozenset()
    edge_counts: dict[str, int] = field(default_factory=dict)  # "KIND/tier" -> edges
    rank_edges: frozenset[tuple[str, str]] = frozenset()  # internal CALLS + IMPORTS pairs
    unresolved_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # id -> names
    external_targets: frozenset[str] = frozenset()  # the :External nodes its edges point at
    # why call sites stayed unresolved ("dynamic:getattr", "values:many", ...) -> sites
    unresolved_kinds: dict[str, int] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        path: str,
        edges: list[Edge],
        unresolved_calls: dict[str, int],
        modules_consulted: Iterable[str],
        names_consulted: frozenset[str],
        unresolved_names: dict[str, tuple[str, ...]] | None = None,
        unresolved_kinds: dict[str, int] | None = None,
    ) -> FileLinks:
        return cls(
            path, tuple(edges), unresolved_calls, ConsultedKeys.of(modules_consulted),
            names_consulted,
            _edge_counts(edges), _ranked(edges), unresolved_names or {},
            frozenset(edge.target for edge in edges if edge.external), unresolved_kinds or {},
        )  # fmt: skip

    def with_edges(self, edges: list[Edge]) -> FileLinks:
        """These links with `edges` in place of their own (to internal targets: the external
        ones stay as they were)."""
        return replace(
            self, edges=tuple(edges), edge_counts=_edge_counts(edges), rank_edges=_ranked(edges)
        )

    def for_state(self) -> FileLinks:
        """Without its edges and rank pairs, as the incremental state keeps it (the rank pairs
        are kept apart, pickled, in `IndexState.rank_edges`). The same object when it has
        neither: an unchanged state entry stays that very object."""
        if not self.edges and not self.rank_edges:
            return self
        return replace(self, edges=(), rank_edges=frozenset())


def _edge_counts(edges: Iterable[Edge]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for edge in edges:
        if edge.external:
            tier = "external"
        else:
            tier = edge.resolution.value if edge.resolution else "resolved"
        counts[f"{edge.kind.value}/{tier}"] += 1
    return dict(counts)


def _ranked(edges: Iterable[Edge]) -> frozenset[tuple[str, str]]:
    return frozenset(
        (edge.source, edge.target)
        for edge in edges
        if not edge.external
        and edge.kind in (EdgeKind.CALLS, EdgeKind.IMPORTS)
        # PageRank: not the fan-out to overrides, to one of many values, to a signature or
        # to one of the values known where others are not
        and edge.resolution not in _UNRANKED
    )


class NodeIds:
    """Maps qualified names of one repository to node ids."""

    def __init__(self, repo: str, index: RepositoryIndex) -> None:
        self.repo = repo
        self.index = index

    def of_module(self, parsed: ParsedFile) -> str:
        shadow = parsed.path if parsed.path in self.index.shadowed_paths else None
        return module_id(self.repo, parsed.module, shadow_path=shadow)

    def of_symbol(self, qualified_name: str, *, ordinal: int = 1, path: str | None = None) -> str:
        """The node of a symbol (declared in `path` when given). A declaration in a file other
        than the one the index holds the name from is a node of its own, named with its path:
        a module claimed twice, or a Go package declaring one name in two files (one per build
        tag: `binding.go` and `binding_nomsgpack.go`)."""
        shadow = (
            path
            if path is not None
            and (path in self.index.shadowed_paths or self._elsewhere(qualified_name, path))
            else None
        )
        return symbol_id(
            self.repo,
            qualified_name,
            ordinal=ordinal,
            shadow_path=shadow,
            clashes_with_module=qualified_name in self.index.modules,
        )

    def _elsewhere(self, qualified_name: str, path: str) -> bool:
        module = self.index.symbol_module.get(qualified_name)
        info = self.index.modules.get(module) if module is not None else None
        return info is not None and info.parsed.path != path

    def of_scope(self, parsed: ParsedFile, scope: str) -> str:
        if scope == parsed.module:
            return self.of_module(parsed)
        return self.of_symbol(scope, path=parsed.path)

    def of_target(self, qualified_name: str) -> str:
        """A resolved internal target (always the canonical definition)."""
        if qualified_name in self.index.modules:
            return module_id(self.repo, qualified_name)
        return self.of_symbol(qualified_name)


class EdgeCollector:
    """Merges repeated edges (same kind, source, target): lines accumulate, best resolution."""

    def __init__(self) -> None:
        self._edges: dict[tuple[EdgeKind, str, str], Edge] = {}

    def add(self, edge: Edge) -> None:
        key = (edge.kind, edge.source, edge.target)
        old = self._edges.get(key)
        if old is None:
            self._edges[key] = edge
            return
        resolution = old.resolution
        if edge.resolution is not None and (
            resolution is None or edge.resolution.rank > resolution.rank
        ):
            resolution = edge.resolution
        self._edges[key] = Edge(
            kind=old.kind,
            source=old.source,
            target=old.target,
            external=old.external,
            resolution=resolution,
            lines=tuple(sorted(set(old.lines) | set(edge.lines))),
            index=old.index,
            names=tuple(sorted(set(old.names) | set(edge.names))),
            via=_merged_via(old, edge),
        )

    def edges(self) -> list[Edge]:
        return sorted(self._edges.values(), key=lambda e: (e.kind.value, e.source, e.target))


def _merged_via(old: Edge, new: Edge) -> str | None:
    """A direct import or call wins (None); CALLS found through values keep every reason."""
    if old.via is None or new.via is None:
        return None
    if old.kind != EdgeKind.CALLS or new.via in old.via.split("; "):
        return old.via
    reasons = old.via.split("; ")
    return "; ".join([*reasons, new.via]) if len(reasons) < _MAX_REASONS else old.via


class UnresolvedCalls:
    """The call sites one file's linker left unresolved: how many per caller, under which
    callee names (the first `MAX_NAMES` in order, for `callers` to offer as candidates), and
    why, by kind."""

    MAX_NAMES = 50

    def __init__(self) -> None:
        self.sites: dict[str, int] = defaultdict(int)  # caller id -> unresolved sites
        self.kinds: dict[str, int] = defaultdict(int)  # "values:many", … -> sites
        self._names: dict[str, set[str]] = defaultdict(set)

    def add(self, caller: str, name: str | None = None, kind: str | None = None) -> None:
        """One unresolved site of `caller`, calling `name` (None: no name to offer)."""
        self.sites[caller] += 1
        if name is not None:
            self._names[caller].add(name)
        if kind is not None:
            self.kinds[kind] += 1

    def names(self) -> dict[str, tuple[str, ...]]:
        return {
            caller: tuple(sorted(found))[: self.MAX_NAMES] for caller, found in self._names.items()
        }
