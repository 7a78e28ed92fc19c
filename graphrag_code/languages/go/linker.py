"""The Go plug-in's linker: one parsed file in, its edges out.

IMPORTS from the file to the imported package's package file (`modules`), or to the
`:External` import path. CALLS `exact`: functions of the file's package (any file of it),
`pkg.F()` of an imported package (an external one's as `path.F`); a conversion `T(x)` is no
call but a type use. CALLS `inferred`: methods through the receiver's declared type
(`resolver`): receivers, parameters, `var x T`, `x := T{}` / `&T{}` / `new(T)` /
`NewT()` (its first declared result) / `y.(T)`, type switches, struct fields (`s.f.M()`),
promoted methods of embedded types, a call on a call's result (`NewT().M()`), method
expressions `T.M`; a method of a known external type as `path.Type.Method`. A call through an
interface-typed value reaches the interface's method (as the type checker names it), and
the methods of the types satisfying it as `dispatch` edges (`dispatch`). Other call sites stay
unresolved (function values, untyped receivers). INHERITS: embedded structs (`via` "struct
embedding"), embedded interfaces ("interface embedding") and satisfaction ("satisfies",
`implements` set). USES_TYPE:
parameters, results, fields, variables, composite literals, assertions, conversions.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...linking.base import LinkContext
from ...linking.edges import EdgeCollector, FileLinks, NodeIds, UnresolvedCalls
from ...linking.index import Lookups, RepositoryIndex
from ...model import CERTAIN_TIERS, CallSite, Edge, EdgeKind, ParsedFile, Resolution, SymbolKind
from .dispatch import Satisfaction, satisfaction
from .externals import EXTERNAL_INTERFACES
from .modules import GoProject, local_replacements, package_dir, package_file, read_go_mod
from .resolver import GoResolver, file_package
from .rules import INTERFACES_KEY

__all__ = ["GoLinker"]

_EMBEDDING = {"struct": "struct embedding", "interface": "interface embedding"}


@dataclass
class GoContext(LinkContext):
    project: GoProject = field(default_factory=GoProject)
    satisfaction: Satisfaction = field(default_factory=Satisfaction)


def go_project(index: RepositoryIndex, project: Mapping[str, str]) -> GoProject:
    """The modules `go.mod` files declare and the packages the index holds."""
    modules: dict[str, str] = {}
    replaced: dict[str, str] = {}
    for path, text in sorted(project.items()):
        directory = path.rpartition("/")[0]
        declared = read_go_mod(text)
        if declared is not None:
            modules[declared] = directory
        for old, folder in local_replacements(text).items():
            target = posixpath.normpath(posixpath.join(directory, folder))
            if not target.startswith(".."):  # outside the repository: external
                replaced[old] = "" if target == "." else target
    modules.update({old: d for old, d in replaced.items() if old not in modules})
    packages: dict[str, list[str]] = defaultdict(list)
    package_of: dict[str, str] = {}
    variables: dict[str, dict[str, str]] = defaultdict(dict)
    for name, info in sorted(index.modules.items()):
        if info.parsed.language != "go":
            continue
        packages[package_dir(name)].append(name)
        package = package_of[name] = file_package(info.parsed)
        for variable in info.bindings:
            variables[package].setdefault(variable, name)
    return GoProject(
        modules, {d: sorted(files) for d, files in packages.items()}, package_of, dict(variables)
    )


class GoLinker:
    project_files: frozenset[str] = frozenset({"go.mod"})

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        found = go_project(index, project)
        return GoContext(project=found, satisfaction=satisfaction(index, found))

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        if not isinstance(context, GoContext):
            context = self.prepare(index, {})
        assert isinstance(context, GoContext)
        lookups = Lookups(index)
        resolver = GoResolver(parsed, lookups, context.project)
        collector = EdgeCollector()
        _link_imports(parsed, resolver, ids, collector)
        _link_embedding(parsed, resolver, ids, collector)
        _link_satisfaction(parsed, context.satisfaction, lookups, ids, collector)
        _link_type_uses(parsed, resolver, ids, collector)
        unresolved = UnresolvedCalls()
        dispatched: list[Edge] = []
        for site in parsed.calls:
            found = context.satisfaction
            if not _link_call(parsed, site, resolver, found, ids, collector, dispatched):
                name = site.callee[-1]
                unresolved.add(
                    ids.of_scope(parsed, site.scope), name if name != "<expr>" else None,
                    "go:unresolved",
                )  # fmt: skip
        _add_dispatch(collector, dispatched)
        return FileLinks.build(
            parsed.path, collector.edges(), dict(unresolved.sites),
            frozenset(lookups.modules_consulted), frozenset(lookups.names_consulted),
            unresolved.names(), dict(unresolved.kinds),
        )  # fmt: skip


def _link_imports(
    parsed: ParsedFile, resolver: GoResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    source = ids.of_module(parsed)
    for statement in parsed.imports:
        directory = resolver.project.directory_of(statement.module)
        if directory is None:
            collector.add(
                Edge(EdgeKind.IMPORTS, source, statement.module, external=True,
                     lines=(statement.line,))
            )  # fmt: skip
            continue
        files = resolver.project.packages.get(directory, [])
        files = [f for f in files if not f.endswith("_test.go")] or files
        if not files:
            continue
        resolver.consult_package(directory)
        target = package_file(files, directory)
        if target != parsed.module:
            collector.add(
                Edge(EdgeKind.IMPORTS, source, ids.of_target(target), lines=(statement.line,))
            )


def _link_embedding(
    parsed: ParsedFile, resolver: GoResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    for symbol in parsed.symbols:
        via = _EMBEDDING.get(symbol.declared_as or "")
        if symbol.kind != SymbolKind.CLASS or via is None or symbol.ordinal != 1:
            continue
        source = ids.of_symbol(symbol.qualified_name, path=parsed.path)
        for position, base in enumerate(symbol.bases):
            found = resolver.type_of(base)
            if found is None:
                continue
            target = found.name if found.external else ids.of_target(found.name)
            collector.add(
                Edge(
                    EdgeKind.INHERITS, source, target, external=found.external,
                    lines=(symbol.start_line,), index=position, via=via,
                )
            )  # fmt: skip


def _link_satisfaction(
    parsed: ParsedFile,
    found: Satisfaction,
    lookups: Lookups,
    ids: NodeIds,
    collector: EdgeCollector,
) -> None:
    """INHERITS edges from the file's types to the interfaces they satisfy (`dispatch`)."""
    for symbol in parsed.symbols:
        if symbol.kind != SymbolKind.CLASS or symbol.declared_as not in ("struct", "type"):
            continue
        lookups.modules_consulted.update(found.interface_modules)
        lookups.names_consulted.add(INTERFACES_KEY)
        source = ids.of_symbol(symbol.qualified_name, path=parsed.path)
        for interface in found.satisfied.get(symbol.qualified_name, ()):
            collector.add(
                Edge(
                    EdgeKind.INHERITS, source, ids.of_target(interface),
                    lines=(symbol.start_line,), via="satisfies", implements=True,
                )
            )  # fmt: skip


def _link_type_uses(
    parsed: ParsedFile, resolver: GoResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    for use in parsed.type_uses:
        found = resolver.type_of(use.type_name)
        if found is None or found.external or found.name == use.scope:
            continue
        collector.add(
            Edge(
                EdgeKind.USES_TYPE, ids.of_scope(parsed, use.scope), ids.of_target(found.name),
                lines=(use.line,),
            )
        )  # fmt: skip


def _add_dispatch(collector: EdgeCollector, dispatched: list[Edge]) -> None:
    """The `dispatch` edges, but not to a method the same caller calls for certain elsewhere:
    one edge holds a pair's lines, and a possible line must not pass for a certain one."""
    certain = {
        (edge.source, edge.target)
        for edge in collector.edges()
        if edge.kind == EdgeKind.CALLS
        and edge.resolution is not None
        and edge.resolution.value in CERTAIN_TIERS
    }
    for edge in dispatched:
        if (edge.source, edge.target) not in certain:
            collector.add(edge)


def _link_call(
    parsed: ParsedFile,
    site: CallSite,
    resolver: GoResolver,
    found_types: Satisfaction,
    ids: NodeIds,
    collector: EdgeCollector,
    dispatched: list[Edge],
) -> bool:
    """Add the CALLS (or a conversion's USES_TYPE) edge of one call site, its `dispatch` edges
    to `dispatched`; False when it stays unresolved."""
    source = ids.of_scope(parsed, site.scope)
    found = resolver.callee(site.scope, site.callee, site.line)
    if found is None:
        return False
    if found.conversion:
        if not found.external:  # USES_TYPE edges name the repository's types only
            collector.add(
                Edge(EdgeKind.USES_TYPE, source, ids.of_target(found.name), lines=(site.line,))
            )
        return True
    resolution = Resolution.INFERRED if found.inferred else Resolution.EXACT
    target = found.name if found.external else ids.of_target(found.name)
    collector.add(
        Edge(
            EdgeKind.CALLS, source, target, external=found.external, resolution=resolution,
            lines=(site.line,),
        )
    )  # fmt: skip
    method = None if found.external else resolver.lookups.symbol(found.name)
    overrides: list[str] = []
    if method is not None and method.declared_as == "interface method":
        overrides = found_types.dispatch_targets(method, resolver)
    elif found.external and found.name.rpartition(".")[0] in EXTERNAL_INTERFACES:
        interface = found.name.rpartition(".")[0]
        # a type gaining or losing one of these methods, in any file, changes the targets: the
        # names a file declares are what an incremental run compares
        resolver.lookups.names_consulted.update(EXTERNAL_INTERFACES[interface])
        overrides = found_types.external_targets(found.name, resolver)
    for override in overrides:
        dispatched.append(
            Edge(
                EdgeKind.CALLS, source, ids.of_target(override),
                resolution=Resolution.DISPATCH, lines=(site.line,),
                via=f"dispatch via `{found.name}`",
            )
        )  # fmt: skip
    return True
