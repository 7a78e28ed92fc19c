"""Turn one parsed file into resolved edges: IMPORTS, CALLS, INHERITS, USES_TYPE.

Calls resolve through `Resolver` (scopes, imports, MRO, simple type inference). A call that
cannot be resolved falls back to the only function/method/class of that name in the
repository (resolution `name`); if there are several candidates, no edge is made and the call
site is counted as unresolved on its caller.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import ClassVar

from ..ids import module_id, symbol_id
from ..model import CallSite, Edge, EdgeKind, ParsedFile, Resolution, SymbolKind
from .index import Lookups, RepositoryIndex
from .resolver import External, Instance, ModuleRef, Resolver, SymbolRef, Target

__all__ = ["FileLinks", "NodeIds", "link_file"]

# Method names of builtin types: a unique repository method with one of these names is not
# evidence enough that `x.append()` calls it.
_BUILTIN_METHODS = frozenset(
    name
    for kind in (list, dict, set, str, bytes, tuple, frozenset, int, float, object)
    for name in dir(kind)
) | frozenset({"close", "read", "write", "readline", "flush", "seek", "send", "run", "start"})


_MAX_UNRESOLVED_NAMES = 50


@dataclass(frozen=True)
class FileLinks:
    """Everything linking one file produced, plus what it consulted (for incremental runs).

    `edge_counts` and `rank_edges` summarise `edges`, so the incremental state can drop the
    edges of files that are not linked again (`for_state`).
    """

    path: str
    edges: tuple[Edge, ...] = ()
    unresolved_calls: dict[str, int] = field(default_factory=dict)  # node id -> call sites
    modules_consulted: frozenset[str] = frozenset()
    names_consulted: frozenset[str] = frozenset()
    edge_counts: dict[str, int] = field(default_factory=dict)  # "KIND/tier" -> edges
    rank_edges: frozenset[tuple[str, str]] = frozenset()  # internal CALLS + IMPORTS pairs
    unresolved_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # id -> names
    external_targets: frozenset[str] = frozenset()  # the :External nodes its edges point at

    @classmethod
    def build(
        cls,
        path: str,
        edges: list[Edge],
        unresolved_calls: dict[str, int],
        modules_consulted: frozenset[str],
        names_consulted: frozenset[str],
        unresolved_names: dict[str, tuple[str, ...]] | None = None,
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
            if not edge.external and edge.kind in (EdgeKind.CALLS, EdgeKind.IMPORTS)
        )
        return cls(
            path, tuple(edges), unresolved_calls, modules_consulted, names_consulted,
            dict(counts), ranked, unresolved_names or {},
            frozenset(edge.target for edge in edges if edge.external),
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
            via=old.via if old.via is not None and edge.via is not None else None,  # direct wins
        )

    def edges(self) -> list[Edge]:
        return sorted(self._edges.values(), key=lambda e: (e.kind.value, e.source, e.target))


def link_file(parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds) -> FileLinks:
    """Resolve every import, call, base class and type use of one file."""
    lookups = Lookups(index)
    resolver = Resolver(lookups)
    collector = _EdgeCollector()
    unresolved: dict[str, int] = defaultdict(int)
    unresolved_names: dict[str, set[str]] = defaultdict(set)
    _link_imports(parsed, resolver, ids, collector)
    _link_bases(parsed, resolver, ids, collector)
    _link_type_uses(parsed, resolver, ids, collector)
    for site in parsed.calls:
        if not _link_call(parsed, site, resolver, ids, collector):
            scope_id = ids.of_scope(parsed, site.scope)
            unresolved[scope_id] += 1
            if site.callee[-1] not in ("<expr>", "super()"):
                unresolved_names[scope_id].add(site.callee[-1])
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


def _link_call(
    parsed: ParsedFile,
    site: CallSite,
    resolver: Resolver,
    ids: NodeIds,
    collector: _EdgeCollector,
) -> bool:
    """Add the CALLS edge of one call site; False when it stays unresolved."""
    source = ids.of_scope(parsed, site.scope)
    target = _call_target(parsed, site, resolver)
    if isinstance(target, External):
        collector.add(
            Edge(
                kind=EdgeKind.CALLS,
                source=source,
                target=target.name,
                external=True,
                resolution=Resolution.INFERRED if target.inferred else Resolution.EXACT,
                lines=(site.line,),
            )
        )
        return True
    callee: str | None = None
    resolution = Resolution.EXACT
    if isinstance(target, SymbolRef):
        callee = _callable_target(target.qualified_name, resolver, ids, collector, source, site)
        resolution = Resolution.INFERRED if target.inferred else Resolution.EXACT
    elif isinstance(target, Instance):
        dunder = resolver.class_member(target.class_name, "__call__", instance=True)
        if isinstance(dunder, SymbolRef):
            callee, resolution = dunder.qualified_name, Resolution.INFERRED
    if callee is None and not (
        len(site.callee) == 1 and resolver.is_bound(site.scope, site.callee[0], parsed.module)
    ):
        # a bare name bound as a variable is that variable, not some function elsewhere
        callee = _by_unique_name(site, resolver)
        resolution = Resolution.NAME
    if callee is None:
        return False
    collector.add(
        Edge(
            kind=EdgeKind.CALLS,
            source=source,
            target=ids.of_target(callee),
            resolution=resolution,
            lines=(site.line,),
        )
    )
    return True


def _call_target(parsed: ParsedFile, site: CallSite, resolver: Resolver) -> Target | None:
    if site.receiver_call is None:
        return resolver.resolve_dotted(site.scope, site.callee, parsed.module, site.line)
    inner = resolver.resolve_dotted(site.scope, site.receiver_call, parsed.module, site.line)
    value = resolver._call_result(inner)
    for attribute in site.callee:
        if value is None:
            return None
        value = resolver.attribute(value, attribute)
    if isinstance(value, SymbolRef | External) and not value.inferred:
        value = (
            SymbolRef(value.qualified_name, True)
            if isinstance(value, SymbolRef)
            else External(value.dotted, True)
        )
    return value


def _callable_target(
    qualified_name: str,
    resolver: Resolver,
    ids: NodeIds,
    collector: _EdgeCollector,
    source: str,
    site: CallSite,
) -> str | None:
    """What a call to `qualified_name` runs: a function, or a class's `__init__`."""
    symbol = resolver.lookups.symbol(qualified_name)
    if symbol is None:
        return None
    if symbol.kind != SymbolKind.CLASS:
        return qualified_name
    collector.add(
        Edge(
            kind=EdgeKind.USES_TYPE,
            source=source,
            target=ids.of_target(qualified_name),
            lines=(site.line,),
        )
    )
    return resolver.constructor(qualified_name) or qualified_name


def _by_unique_name(site: CallSite, resolver: Resolver) -> str | None:
    name = site.callee[-1]
    if name.startswith("__") or name in ("<expr>", "super()"):
        return None
    if len(site.callee) > 1 and name in _BUILTIN_METHODS:
        return None
    found = resolver.lookups.unique_callable(name)
    if found is None:
        return None
    symbol = resolver.lookups.symbol(found)
    if symbol is not None and symbol.kind == SymbolKind.CLASS:
        return resolver.constructor(found) or found
    return found
