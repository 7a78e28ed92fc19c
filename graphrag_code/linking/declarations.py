"""The edges every language reads off declarations in the same way once its resolver has named
them: INHERITS from a class's bases (and the interfaces it implements), USES_TYPE from the
types a scope names (annotations, `isinstance`, return types)."""

from __future__ import annotations

from collections.abc import Callable

from ..model import Dotted, Edge, EdgeKind, ParsedFile, SymbolKind
from .edges import EdgeCollector, NodeIds
from .index import Lookups, RepositoryIndex
from .targets import External, ModuleRef, SymbolRef, Target

__all__ = ["Resolve", "defining_module", "link_heritage", "link_type_uses"]

Resolve = Callable[[str, Dotted, str], Target | None]
"""A resolver's `resolve_dotted`: (scope, dotted name, module) -> what the name is there."""


def defining_module(target: Target | None, index: RepositoryIndex) -> str | None:
    """The module that defines an internal symbol, or the module itself; None otherwise."""
    if isinstance(target, SymbolRef):
        return index.symbol_module.get(target.qualified_name)
    if isinstance(target, ModuleRef):
        return target.module
    return None


def link_heritage(
    parsed: ParsedFile, resolve: Resolve, ids: NodeIds, collector: EdgeCollector
) -> None:
    """INHERITS edges of the file's classes: bases in order, then interfaces (`implements`)."""
    for symbol in parsed.symbols:
        if symbol.kind != SymbolKind.CLASS or symbol.ordinal != 1:
            continue
        source = ids.of_symbol(symbol.qualified_name, path=parsed.path)
        named = [(base, False) for base in symbol.bases]
        named += [(interface, True) for interface in symbol.implements]
        for position, (base, implements) in enumerate(named):
            target = resolve(symbol.parent, base, parsed.module)
            if isinstance(target, SymbolRef):
                edge_target, external = ids.of_target(target.qualified_name), False
            elif isinstance(target, External):
                edge_target, external = target.name, True
            else:
                continue
            collector.add(
                Edge(
                    EdgeKind.INHERITS, source, edge_target, external=external,
                    lines=(symbol.start_line,), index=position, implements=implements,
                )
            )  # fmt: skip


def link_type_uses(
    parsed: ParsedFile, resolve: Resolve, lookups: Lookups, ids: NodeIds, collector: EdgeCollector
) -> None:
    """USES_TYPE edges from each scope to the internal classes it names as types."""
    for use in parsed.type_uses:
        target = resolve(use.scope, use.type_name, parsed.module)
        if not isinstance(target, SymbolRef):
            continue
        symbol = lookups.symbol(target.qualified_name)
        if symbol is None or symbol.kind != SymbolKind.CLASS:
            continue
        collector.add(
            Edge(
                EdgeKind.USES_TYPE,
                source=ids.of_scope(parsed, use.scope),
                target=ids.of_target(target.qualified_name),
                lines=(use.line,),
            )
        )
