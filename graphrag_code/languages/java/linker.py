"""The Java plug-in's linker: one parsed file in, its edges out.

IMPORTS: a single-type import to the file declaring the type (a static one to the file of
its class), an on-demand one to a file of the package (`package-info.java`, else the first
by name: the graph has no package node) or of the class; anything else `:External` by its
qualified name (`java.util.List`; a static member import by its class). CALLS: `calls`,
and `dispatch` edges to the overrides a virtual call may run (`dispatch`).
INHERITS: `extends` (index in order) and `implements` (`implements` set) to internal or
external types; an anonymous class or an enum constant's body to the type it extends.
USES_TYPE: the internal types of declarations, `new`, casts and `instanceof`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...linking.base import LinkContext
from ...linking.edges import EdgeCollector, FileLinks, NodeIds, UnresolvedCalls
from ...linking.index import Lookups, RepositoryIndex
from ...model import Call, CallSite, Edge, EdgeKind, ParsedFile, Resolution, SymbolKind
from .builds import BUILD_FILES
from .calls import call_targets, external_receiver, receiver_class
from .dispatch import Hierarchy, hierarchy
from .implicit import IMPLICIT_SUPER
from .resolver import Found, JavaProject, JavaResolver, Resolvers

__all__ = ["JavaLinker"]


@dataclass
class JavaContext(LinkContext):
    project: JavaProject = field(default_factory=JavaProject)
    hierarchy: Hierarchy = field(default_factory=Hierarchy)


class JavaLinker:
    # which sibling build modules a build module depends on (`builds`)
    project_files: frozenset[str] = BUILD_FILES

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        found = JavaProject.of(index.modules, project)
        return JavaContext(project=found, hierarchy=hierarchy(index, found))

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        if not isinstance(context, JavaContext):
            context = self.prepare(index, {})
        assert isinstance(context, JavaContext)
        lookups = Lookups(index)
        resolvers = Resolvers(lookups, context.project)
        resolver = resolvers.of(parsed.module) or JavaResolver(parsed, resolvers)
        collector = EdgeCollector()
        _link_imports(parsed, resolver, ids, collector)
        _link_inherits(parsed, resolver, ids, collector)
        _link_type_uses(parsed, resolver, ids, collector)
        unresolved = UnresolvedCalls()
        certain: set[tuple[str, str]] = set()
        dispatched: list[Edge] = []
        for site in parsed.calls:
            source = ids.of_scope(parsed, site.scope)
            if site.value is None or not isinstance(site.value, Call):
                continue
            targets, tier = call_targets(resolver, site.value, site.scope, site.line)
            if not targets or tier is None:
                if site.callee == (IMPLICIT_SUPER,):
                    continue  # an external superclass's constructor: not the repository's
                name = site.callee[-1]
                unresolved.add(
                    source, name if not name.startswith("<") else None, "java:unresolved"
                )
                continue
            for target in targets:
                edge = Edge(
                    EdgeKind.CALLS, source,
                    target.name if target.external else ids.of_target(target.name),
                    external=target.external, resolution=tier, lines=(site.line,),
                )  # fmt: skip
                collector.add(edge)
                if tier.rank >= Resolution.INFERRED.rank:
                    certain.add((source, edge.target))
            if tier.rank >= Resolution.INFERRED.rank and len(targets) == 1:
                dispatched += _dispatch(site, targets[0], resolver, context.hierarchy, ids)
        for edge in dispatched:  # a caller that certainly calls the override says so
            if (edge.source, edge.target) not in certain:
                collector.add(edge)
        return FileLinks.build(
            parsed.path, collector.edges(), dict(unresolved.sites),
            frozenset(lookups.modules_consulted), frozenset(lookups.names_consulted),
            unresolved.names(), dict(unresolved.kinds),
        )  # fmt: skip


def _dispatch(
    site: CallSite, target: Found, resolver: JavaResolver, found: Hierarchy, ids: NodeIds
) -> list[Edge]:
    """`dispatch` edges to the overrides a virtual call bound to `target` may run."""
    if not isinstance(site.value, Call):
        return []
    if target.external:
        return _external_dispatch(site, site.value, target, resolver, found, ids)
    method = resolver.lookups.symbol(target.name)
    if method is None or not found.may_override(resolver.lookups, method):
        return []
    bound = receiver_class(resolver, site.value, site.scope, site.line)
    if bound is None:
        return []
    source = ids.of_scope(resolver.parsed, site.scope)
    return [
        Edge(
            EdgeKind.CALLS, source, ids.of_target(override), resolution=Resolution.DISPATCH,
            lines=(site.line,), via=f"dispatch via `{method.qualified_name}`",
        )
        for override in found.overrides(resolver, method, bound)
    ]  # fmt: skip


def _external_dispatch(
    site: CallSite, call: Call, target: Found, resolver: JavaResolver, found: Hierarchy,
    ids: NodeIds,
) -> list[Edge]:  # fmt: skip
    """`dispatch` edges from a call on an external type's value (`Runnable r; r.run()`) to the
    repository's implementations of it (`Hierarchy.external_overrides`)."""
    bound = external_receiver(resolver, call, site.scope, site.line)
    owner, _, name = target.name.rpartition(".")
    if bound is None or owner != bound:
        return []
    arguments = [resolver.argument(value, site.scope, site.line) for _, value in call.arguments]
    source = ids.of_scope(resolver.parsed, site.scope)
    return [
        Edge(
            EdgeKind.CALLS, source, ids.of_target(override), resolution=Resolution.DISPATCH,
            lines=(site.line,), via=f"dispatch via `{target.name}`",
        )
        for override in found.external_overrides(resolver, bound, name, arguments)
    ]  # fmt: skip


def _link_imports(
    parsed: ParsedFile, resolver: JavaResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    source = ids.of_module(parsed)
    index = resolver.lookups.index
    for statement in parsed.imports:
        name = statement.name or ""
        target: str | None = None
        if name == "*":
            files = resolver.project.files.get(statement.module)
            if files:
                resolver.lookups.modules_consulted.update(files)
                info = [f for f in files if f.endswith("/package-info.java")] or files
                target = info[0]
            elif resolver.lookups.symbol(resolver.internal(statement.module)) is not None:
                target = index.symbol_module[resolver.internal(statement.module)]
            external = statement.module
        else:
            qualified = f"{statement.module}.{name}"
            for candidate in (resolver.internal(qualified), resolver.internal(statement.module)):
                if resolver.lookups.symbol(candidate) is not None:
                    target = index.symbol_module[candidate]
                    break
            member = name[:1].islower() and statement.module.rpartition(".")[2][:1].isupper()
            external = statement.module if member else qualified
        unclear = [] if target is not None else resolver.unclear(f"{statement.module}.{name}")
        for candidate in unclear:  # several build modules declare it: each may be the one
            owner = candidate if candidate in index.symbol_module else candidate.rpartition(".")[0]
            if (module := index.symbol_module.get(owner)) is not None:
                collector.add(
                    Edge(EdgeKind.IMPORTS, source, ids.of_target(module),
                         lines=(statement.line,), names=(name,))
                )  # fmt: skip
        if target is None and not unclear:
            collector.add(
                Edge(EdgeKind.IMPORTS, source, external, external=True,
                     lines=(statement.line,), names=(name,))
            )  # fmt: skip
        elif target is not None and target != parsed.module:
            collector.add(
                Edge(EdgeKind.IMPORTS, source, ids.of_target(target), lines=(statement.line,),
                     names=(name,))
            )  # fmt: skip


def _link_inherits(
    parsed: ParsedFile, resolver: JavaResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    for symbol in parsed.symbols:
        if symbol.kind != SymbolKind.CLASS or symbol.ordinal != 1:
            continue
        source = ids.of_symbol(symbol.qualified_name, path=parsed.path)
        bases = [(base, False) for base in symbol.bases]
        bases += [(base, True) for base in symbol.implements]
        for position, (base, implements) in enumerate(bases):
            found = resolver.type_of(base, symbol.parent)
            if found is None or found.name == symbol.qualified_name:
                continue
            if not implements and symbol.declared_as in ("anonymous class", "interface"):
                base_symbol = None if found.external else resolver.lookups.symbol(found.name)
                implements = base_symbol is not None and base_symbol.declared_as == "interface"
            collector.add(
                Edge(
                    EdgeKind.INHERITS, source, found.name if found.external else
                    ids.of_target(found.name), external=found.external,
                    lines=(symbol.start_line,), index=position, implements=implements,
                )
            )  # fmt: skip


def _link_type_uses(
    parsed: ParsedFile, resolver: JavaResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    for use in parsed.type_uses:
        found = resolver.type_of(use.type_name, use.scope)
        if found is None or found.external or found.name == use.scope:
            continue
        collector.add(
            Edge(EdgeKind.USES_TYPE, ids.of_scope(parsed, use.scope), ids.of_target(found.name),
                 lines=(use.line,))
        )  # fmt: skip
