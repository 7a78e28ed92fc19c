"""Turn one parsed file into resolved edges: IMPORTS, CALLS, INHERITS, USES_TYPE.

Calls resolve through `Resolver` (scopes, imports, MRO, simple type inference), then through
values (`values/`: what a variable, element, result or parameter may hold; `calls.py`). A
call that cannot be resolved falls back to the only function/method/class of that name in the
repository (resolution `name`); if there are several candidates, no edge is made and the call
site is counted as unresolved on its caller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...linking.declarations import defining_module, link_heritage, link_type_uses
from ...linking.edges import EdgeCollector, FileLinks, NodeIds, UnresolvedCalls
from ...linking.index import Lookups, RepositoryIndex
from ...model import Edge, EdgeKind, ParsedFile
from .calls import IMPLICIT, RUNS_NOTHING, CallLinker
from .resolver import Resolver
from .suite_reach import reaches_from
from .values.engine import SharedValues, ValueFlowAnalysis

if TYPE_CHECKING:
    from .dispatch import DispatchTable

__all__ = ["IMPLICIT", "FileLinks", "NodeIds", "link_file"]


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
    collector = EdgeCollector()
    unresolved = UnresolvedCalls()
    _link_imports(parsed, resolver, ids, collector)
    link_heritage(parsed, resolver.resolve_dotted, ids, collector)
    link_type_uses(parsed, resolver.resolve_dotted, resolver.lookups, ids, collector)
    calls = CallLinker(parsed, resolver, ValueFlowAnalysis(resolver, shared), ids, collector.add)
    for site in parsed.calls:
        try:
            outcome = calls.link(site)
        except RecursionError:
            # a chain of values deeper than Python's stack that no guard foresaw: this call
            # stays unresolved, and the rest of the file (and of the repository) still links
            outcome = "values:too-deep"
        if outcome is not None:
            name = site.callee[-1]
            named = name not in ("<expr>", "super()") and outcome != RUNS_NOTHING
            unresolved.add(ids.of_scope(parsed, site.scope), name if named else None, outcome)
    for implicit in parsed.implicit_calls:
        try:
            calls.link_implicit(implicit)
        except RecursionError:
            unresolved.kinds["values:too-deep"] += 1
    if dispatch is not None:
        reaches = reaches_from(parsed, resolver)
        found = dispatch.edges(
            collector.edges(), lookups, calls.static_lines, calls.receivers, reaches
        )
        for edge in found:
            collector.add(edge)
        for edge in dispatch.absent_edges(calls.absent, lookups):
            collector.add(edge)
        for edge in dispatch.constructor_edges(calls.constructed, collector.edges(), lookups):
            collector.add(edge)
    return FileLinks.build(
        parsed.path,
        collector.edges(),
        dict(unresolved.sites),
        frozenset(lookups.modules_consulted),
        frozenset(lookups.names_consulted),
        unresolved.names(),
        dict(unresolved.kinds),
    )


def _link_imports(
    parsed: ParsedFile, resolver: Resolver, ids: NodeIds, collector: EdgeCollector
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
                home = defining_module(defined, resolver.lookups.index)
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
