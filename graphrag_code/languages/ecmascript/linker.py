"""The TypeScript / JavaScript plug-in's linker: one parsed file in, its edges out.

IMPORTS: every ES import, `export … from`, `require`, and dynamic `import()` (a possible edge:
resolution `name`), to the file it resolves to or to the `:External` package. CALLS with the
usual tiers: `exact` by scope, imports and declarations (`f()`, `ns.f()`, `new C()`,
`this.m()`, `super.m()`, `obj.#m()`, tsc's `(0, mod_1.f)()`), `inferred` through types
(annotations, parameter types, `new` results, return types, class and interface fields, the
elements of typed arrays, what `return this` / `return new X()` / a returned object give),
`name` when the callee's name is unique among the repository's TS/JS functions and nothing
says it is another (`name_tier`).
INHERITS for `extends` (and `implements`, marked so); USES_TYPE for annotations, generic
arguments, `instanceof` and `satisfies`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...linking.base import LinkContext
from ...linking.declarations import defining_module, link_heritage, link_type_uses
from ...linking.edges import EdgeCollector, FileLinks, NodeIds, UnresolvedCalls
from ...linking.index import Lookups, RepositoryIndex
from ...linking.targets import External, Instance, ModuleRef, SymbolRef, Target
from ...model import CallSite, Edge, EdgeKind, ParsedFile, Resolution, SymbolKind
from .modules import EcmaProject, read_project
from .name_tier import ECMASCRIPT_LANGUAGES, by_unique_name
from .resolver import EcmaResolver
from .syntax import ELEMENT

__all__ = ["ECMASCRIPT_LANGUAGES", "EcmaScriptLinker"]


@dataclass
class EcmaContext(LinkContext):
    project: EcmaProject | None = None


class EcmaScriptLinker:
    """Links TypeScript and JavaScript files (they import each other, so one linker)."""

    project_files: frozenset[str] = frozenset(
        {"package.json", "tsconfig.json", "tsconfig.*.json", "jsconfig.json"}
    )

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        read = read_project(project)
        return EcmaContext(issues=read.issues, project=read)

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        project = context.project if isinstance(context, EcmaContext) else None
        lookups = Lookups(index)
        resolver = EcmaResolver(lookups, project or EcmaProject())
        collector = EdgeCollector()
        _link_imports(parsed, resolver, ids, collector)
        link_heritage(parsed, resolver.resolve_dotted, ids, collector)
        link_type_uses(parsed, resolver.resolve_dotted, resolver.lookups, ids, collector)
        unresolved = UnresolvedCalls()
        for site in parsed.calls:
            if not _link_call(parsed, site, resolver, ids, collector):
                name = site.callee[-1]  # `fns[i]()` calls no name
                named = name not in ("<expr>", "super()", "constructor") and ELEMENT not in name
                unresolved.add(ids.of_scope(parsed, site.scope), name if named else None)
        return FileLinks.build(
            parsed.path,
            collector.edges(),
            dict(unresolved.sites),
            frozenset(lookups.modules_consulted),
            frozenset(lookups.names_consulted),
            unresolved.names(),
        )


def _link_imports(
    parsed: ParsedFile, resolver: EcmaResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    source = ids.of_module(parsed)
    for statement in parsed.imports:
        module, external = resolver.specifier(parsed.module, statement.module)
        names = (statement.name,) if statement.name and statement.name != "*" else ()
        resolution = Resolution.NAME if statement.possible else None
        if external is not None:
            collector.add(
                Edge(
                    EdgeKind.IMPORTS, source, external, external=True, resolution=resolution,
                    lines=(statement.line,), names=names,
                )
            )  # fmt: skip
            continue
        if module is None or module == parsed.module:
            continue
        collector.add(
            Edge(
                EdgeKind.IMPORTS, source, ids.of_target(module), resolution=resolution,
                lines=(statement.line,), names=names,
            )
        )  # fmt: skip
        if statement.name not in (None, "*"):  # a name re-exported from another file
            home = defining_module(
                resolver.import_target(statement, parsed.module), resolver.lookups.index
            )
            if home is not None and home not in (module, parsed.module):
                collector.add(
                    Edge(
                        EdgeKind.IMPORTS, source, ids.of_target(home), resolution=resolution,
                        lines=(statement.line,), names=names, via=module,
                    )
                )  # fmt: skip


def _call_target(parsed: ParsedFile, site: CallSite, resolver: EcmaResolver) -> Target | None:
    if site.receiver_call is None:
        return resolver.resolve_dotted(site.scope, site.callee, parsed.module, site.line)
    inner = resolver.resolve_dotted(site.scope, site.receiver_call, parsed.module, site.line)
    value = resolver.call_result(inner)
    for attribute in site.callee:
        if value is None:
            return None
        value = resolver.attribute(value, attribute)
    if isinstance(value, SymbolRef) and not value.inferred:
        return SymbolRef(value.qualified_name, True)
    if isinstance(value, External) and not value.inferred:
        return External(value.dotted, True)
    return value


def _link_call(
    parsed: ParsedFile,
    site: CallSite,
    resolver: EcmaResolver,
    ids: NodeIds,
    collector: EdgeCollector,
) -> bool:
    """Add the CALLS edge of one call site; False when it stays unresolved."""
    source = ids.of_scope(parsed, site.scope)
    target = _call_target(parsed, site, resolver)
    if isinstance(target, External):
        collector.add(
            Edge(
                EdgeKind.CALLS, source, target.name, external=True,
                resolution=Resolution.INFERRED if target.inferred else Resolution.EXACT,
                lines=(site.line,),
            )
        )  # fmt: skip
        return True
    callee: str | None = None
    resolution = Resolution.EXACT
    if isinstance(target, SymbolRef):
        callee = _callable(target.qualified_name, resolver, ids, collector, source, site)
        resolution = Resolution.INFERRED if target.inferred else Resolution.EXACT
    elif isinstance(target, Instance | ModuleRef):
        return False  # calling an object or a namespace: nothing to point at
    if callee is None and not (
        len(site.callee) == 1 and resolver.is_bound(site.scope, site.callee[0], parsed.module)
    ):
        callee = by_unique_name(parsed, site, resolver)
        resolution = Resolution.NAME
    if callee is None:
        return False
    collector.add(
        Edge(
            EdgeKind.CALLS, source, ids.of_target(callee), resolution=resolution,
            lines=(site.line,),
        )
    )  # fmt: skip
    return True


def _callable(
    qualified_name: str,
    resolver: EcmaResolver,
    ids: NodeIds,
    collector: EdgeCollector,
    source: str,
    site: CallSite,
) -> str | None:
    """What a call to `qualified_name` runs: a function or method, a class's constructor (or
    the class itself when it has none)."""
    symbol = resolver.lookups.symbol(qualified_name)
    if symbol is None:
        return None
    if symbol.kind != SymbolKind.CLASS:
        return qualified_name
    if symbol.declared_as in ("interface", "type alias", "enum", "namespace", "object literal"):
        return None
    collector.add(
        Edge(EdgeKind.USES_TYPE, source, ids.of_target(qualified_name), lines=(site.line,))
    )
    return resolver.constructor(qualified_name) or qualified_name
