"""Turn one parsed file into resolved edges: IMPORTS, CALLS, INHERITS, USES_TYPE.

Calls resolve through `Resolver` (scopes, imports, MRO, simple type inference), then through
values (`values.py`: what a variable, element, result or parameter may hold; `calls.py`). A
call that cannot be resolved falls back to the only function/method/class of that name in the
repository (resolution `name`); if there are several candidates, no edge is made and the call
site is counted as unresolved on its caller.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

from ..ids import module_id, symbol_id
from ..model import Edge, EdgeKind, ParsedFile, Resolution, SymbolKind
from .calls import IMPLICIT, RUNS_NOTHING, CallLinker
from .consulted import ConsultedKeys
from .index import Lookups, RepositoryIndex
from .resolver import External, ModuleRef, Resolver, SymbolRef, Target
from .values import SharedValues, ValueFlowAnalysis

if TYPE_CHECKING:
    from .dispatch import DispatchTable

__all__ = ["IMPLICIT", "FileLinks", "NodeIds", "link_file"]

_MAX_UNRESOLVED_NAMES = 50
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
        counts: dict[str, int] = defaultdict(int)
        for edge in edges:
            if edge.external:
                tier = "external"
            else:
                tier = edge.resolution.value if edge.resolution else "resolved"
            counts[f"{edge.kind.value}/{tier}"] += 1
        ranked = frozenset(
            (edge.source, edge.target)
            for edge in edges
            if not edge.external
            and edge.kind in (EdgeKind.CALLS, EdgeKind.IMPORTS)
            # PageRank: not the fan-out to overrides, to one of many values, to a signature
            # or to one of the values known where others are not
            and edge.resolution not in _UNRANKED
        )
        return cls(
            path, tuple(edges), unresolved_calls, ConsultedKeys.of(modules_consulted),
            names_consulted,
            dict(counts), ranked, unresolved_names or {},
            frozenset(edge.target for edge in edges if edge.external), unresolved_kinds or {},
        )  # fmt: skip

    def for_state(self) -> FileLinks:
        """Without its edges and rank pairs, as the incremental state keeps it (the rank pairs
        are kept apart, pickled, in `IndexState.rank_edges`). The same object when it has
        neither: an unchanged state entry stays that very object."""
        if not self.edges and not self.rank_edges:
            return self
        return replace(self, edges=(), rank_edges=frozenset())


class NodeIds:
    """Maps qualified names of one repository to node ids."""

    def __init__(self, repo: str, index: RepositoryIndex) -> None:
        self.repo = repo
        self.index = index

    def of_module(self, parsed: ParsedFile) -> str:
        shadow = parsed.path if parsed.path in self.index.shadowed_paths else None
        return module_id(self.repo, parsed.module, shadow_path=shadow)

    def of_symbol(self, qualified_name: str, *, ordinal: int = 1, path: str | None = None) -> str:
        shadow = path if path is not None and path in self.index.shadowed_paths else None
        return symbol_id(
            self.repo,
            qualified_name,
            ordinal=ordinal,
            shadow_path=shadow,
            clashes_with_module=qualified_name in self.index.modules,
        )

    def of_scope(self, parsed: ParsedFile, scope: str) -> str:
        if scope == parsed.module:
            return self.of_module(parsed)
        return self.of_symbol(scope, path=parsed.path)

    def of_target(self, qualified_name: str) -> str:
        """A resolved internal target (always the canonical definition)."""
        if qualified_name in self.index.modules:
            return module_id(self.repo, qualified_name)
        return self.of_symbol(qualified_name)


class _EdgeCollector:
    """Merges repeated edges (same kind, source, target): lines accumulate, best resolution."""

    _RANK: ClassVar[dict[Resolution, int]] = {
        Resolution.EXACT: 3,
        Resolution.INFERRED: 2,
        Resolution.NAME: 1,
        Resolution.DISPATCH: 0,
        Resolution.MANY: 0,
        Resolution.SIGNATURE: 0,
        Resolution.PARTIAL: 0,
    }

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
            resolution is None or self._RANK[edge.resolution] > self._RANK[resolution]
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


def link_file(
    parsed: ParsedFile,
    index: RepositoryIndex,
    ids: NodeIds,
    shared: SharedValues | None = None,
    dispatch: DispatchTable | None = None,
) -> FileLinks:
    """Resolve every import, call, base class and type use of one file (`shared`: value-flow
    results of the files linked before it in the same run; `dispatch`: the run's classes,
    for the possible calls of overrides)."""
    lookups = Lookups(index)
    resolver = Resolver(lookups)
    collector = _EdgeCollector()
    unresolved: dict[str, int] = defaultdict(int)
    unresolved_names: dict[str, set[str]] = defaultdict(set)
    kinds: dict[str, int] = defaultdict(int)
    _link_imports(parsed, resolver, ids, collector)
    _link_bases(parsed, resolver, ids, collector)
    _link_type_uses(parsed, resolver, ids, collector)
    calls = CallLinker(parsed, resolver, ValueFlowAnalysis(resolver, shared), ids, collector.add)
    for site in parsed.calls:
        try:
            outcome = calls.link(site)
        except RecursionError:
            # a chain of values deeper than Python's stack that no guard foresaw: this call
            # stays unresolved, and the rest of the file (and of the repository) still links
            outcome = "values:too-deep"
        if outcome is not None:
            scope_id = ids.of_scope(parsed, site.scope)
            unresolved[scope_id] += 1
            kinds[outcome] += 1
            if site.callee[-1] not in ("<expr>", "super()") and outcome != RUNS_NOTHING:
                unresolved_names[scope_id].add(site.callee[-1])
    for implicit in parsed.implicit_calls:
        try:
            calls.link_implicit(implicit)
        except RecursionError:
            kinds["values:too-deep"] += 1
    if dispatch is not None:
        for edge in dispatch.edges(collector.edges(), lookups, calls.static_lines):
            collector.add(edge)
        for edge in dispatch.absent_edges(calls.absent, lookups):
            collector.add(edge)
        for edge in dispatch.constructor_edges(calls.constructed, collector.edges(), lookups):
            collector.add(edge)
    return FileLinks.build(
        parsed.path,
        collector.edges(),
        dict(unresolved),
        frozenset(lookups.modules_consulted),
        frozenset(lookups.names_consulted),
        {
            node: tuple(sorted(names))[:_MAX_UNRESOLVED_NAMES]
            for node, names in unresolved_names.items()
        },
        dict(kinds),
    )


def _link_imports(
    parsed: ParsedFile, resolver: Resolver, ids: NodeIds, collector: _EdgeCollector
) -> None:
    source = ids.of_module(parsed)
    lookups = resolver.lookups
    for statement in parsed.imports:
        if statement.module == "__future__":
            continue
        module = resolver.absolute_module(statement, parsed.module, parsed.is_package)
        names = (statement.name,) if statement.name and statement.name != "*" else ()
        targets: list[tuple[str, bool, str | None]] = []  # (target, external, re-exported via)
        if statement.name is None or statement.name == "*":
            internal = _longest_internal(module, lookups)
            if internal is not None:
                targets.append((internal, False, None))
            elif module:
                targets.append((module, True, None))
        else:
            submodule = f"{module}.{statement.name}" if module else statement.name
            if lookups.has_module(submodule):
                targets.append((submodule, False, None))
            elif lookups.has_module(module):
                targets.append((module, False, None))
                defined = resolver.import_target(statement, parsed.module, parsed.is_package)
                home = _defining_module(defined, index=resolver.lookups.index)
                if home is not None and home != module:
                    targets.append((home, False, module))
            else:
                internal = _longest_internal(module, lookups)
                if internal is not None:
                    targets.append((internal, False, None))
                elif module:
                    targets.append((module, True, None))
        for target, external, via in targets:
            if not external and target == parsed.module:
                continue
            collector.add(
                Edge(
                    kind=EdgeKind.IMPORTS,
                    source=source,
                    target=target if external else ids.of_target(target),
                    external=external,
                    lines=(statement.line,),
                    names=names,
                    via=via,
                )
            )


def _longest_internal(module: str, lookups: Lookups) -> str | None:
    parts = module.split(".") if module else []
    while parts:
        candidate = ".".join(parts)
        if lookups.has_module(candidate):
            return candidate
        parts.pop()
    return None


def _defining_module(target: Target | None, *, index: RepositoryIndex) -> str | None:
    if isinstance(target, SymbolRef):
        return index.symbol_module.get(target.qualified_name)
    if isinstance(target, ModuleRef):
        return target.module
    return None


def _link_bases(
    parsed: ParsedFile, resolver: Resolver, ids: NodeIds, collector: _EdgeCollector
) -> None:
    for symbol in parsed.symbols:
        if symbol.kind != SymbolKind.CLASS or symbol.ordinal != 1:
            continue
        source = ids.of_symbol(symbol.qualified_name, path=parsed.path)
        for position, base in enumerate(symbol.bases):
            target = resolver.resolve_dotted(symbol.parent, base, parsed.module)
            if isinstance(target, SymbolRef):
                edge_target, external = ids.of_target(target.qualified_name), False
            elif isinstance(target, External):
                edge_target, external = target.name, True
            else:
                continue
            collector.add(
                Edge(
                    kind=EdgeKind.INHERITS,
                    source=source,
                    target=edge_target,
                    external=external,
                    lines=(symbol.start_line,),
                    index=position,
                )
            )


def _link_type_uses(
    parsed: ParsedFile, resolver: Resolver, ids: NodeIds, collector: _EdgeCollector
) -> None:
    for use in parsed.type_uses:
        target = resolver.resolve_dotted(use.scope, use.type_name, parsed.module)
        if not isinstance(target, SymbolRef):
            continue
        symbol = resolver.lookups.symbol(target.qualified_name)
        if symbol is None or symbol.kind != SymbolKind.CLASS:
            continue
        collector.add(
            Edge(
                kind=EdgeKind.USES_TYPE,
                source=ids.of_scope(parsed, use.scope),
                target=ids.of_target(target.qualified_name),
                lines=(use.line,),
            )
        )
