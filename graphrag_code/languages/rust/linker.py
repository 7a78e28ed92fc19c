"""The Rust plug-in's linker: one parsed file in, its edges out.

IMPORTS: each `use` name to the file that declares the item (or that is the module) it
names, through re-exports (`resolver`); otherwise `:External`, named by its crate (`std`,
`serde`). CALLS `exact`: paths (`f()`, `a::b::f()`, `crate::`/`super::`/`self::` paths,
`Type::f()`, `Self::f()`, names a `use` or glob brings in). CALLS `inferred`: methods on a
receiver whose type is declared or evident (`resolver.type_of`): `self`, parameters,
`let x: T`, `let x = T { … }`, `let x = call()` (its declared result, `Self` as its impl's
type), fields (`self.f.m()`), results of calls in a chain (`a.b()?.c().await`), with `&`,
`Box`, `Option`, `Result` … unwrapped; a method of a trait impl or a trait's default method
where the type implements the trait in the repository. Calls of functions outside the
repository, through closures, and macro invocations stay unresolved (a macro's site is
recorded, not linked, in this step). CALLS `dispatch` (possible): a call that reaches a trait's
method, to each impl's method (`dispatch`). INHERITS: `impl Trait for Type`, from the type to
the trait (`implements` set; an external trait by its path). USES_TYPE: the repository's
types named in signatures, fields and `let` types.

Code a default build of the crate leaves out (`#[cfg(feature = "rayon")]` where `default` does
not turn the feature on, `#[cfg(doctest)]`: `cfg`) makes no certain CALLS: its calls are `name`
(possible) edges, `via` saying which `cfg`; its `use` items import what they name unless a
default build lacks it (a module switched off, a crate that is no dependency without a
feature), and its `extern crate` items nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...linking.base import LinkContext
from ...linking.edges import EdgeCollector, FileLinks, NodeIds, UnresolvedCalls
from ...linking.index import Lookups, RepositoryIndex
from ...model import Call, Edge, EdgeKind, ParsedFile, Resolution, SymbolKind
from .autoref import through_mut_ref
from .cfg import crate_builds, switched_off
from .cfg_names import host_lacks
from .dispatch import dispatch_targets, trait_impls
from .modules import crate_of, module_path
from .paths import Path, joined, split_path
from .project import RustProject
from .resolver import UNSURE, RustResolver
from .same_impl import same_impl_method

__all__ = ["RustLinker"]

_TIERS = {"exact": Resolution.EXACT, "inferred": Resolution.INFERRED}


@dataclass
class RustContext(LinkContext):
    project: RustProject = field(default_factory=RustProject)


class RustLinker:
    project_files: frozenset[str] = frozenset({"Cargo.toml"})

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        crates = RustProject.of(index.modules, project)
        crates.impls = trait_impls(index.symbols)
        crates.builds = crate_builds(
            project, frozenset(i.parsed.path for i in index.modules.values())
        )
        crates.off_modules = _off_modules(index, crates)
        crates.repeated, crates.kept = _live_definitions(index, crates)
        crates.dead = _dead_definitions(index, crates)
        return RustContext(project=crates)

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        if not isinstance(context, RustContext):
            context = self.prepare(index, {})
        assert isinstance(context, RustContext)
        lookups = Lookups(index)
        resolver = RustResolver(parsed, lookups, context.project)
        collector = EdgeCollector()
        _link_imports(parsed, resolver, ids, collector, _SwitchedOff(parsed, context.project))
        _link_impls(parsed, resolver, ids, collector)
        _link_type_uses(parsed, resolver, ids, collector)
        unresolved = UnresolvedCalls()
        source_of = _Callers(parsed, ids)
        off = _SwitchedOff(parsed, context.project)
        for site in parsed.calls:
            if not isinstance(site.value, Call):
                continue  # a macro invocation
            source = source_of(site.scope, site.line)
            target, tier = resolver.call_and_tier(site.value, site.scope, site.line)
            if target is not None and tier != UNSURE:
                forwarded = through_mut_ref(
                    resolver, site.value, site.scope, target, context.project.impls
                )
                if forwarded is not None:  # `self.m()` in a `&mut self` method (`autoref`)
                    target, tier = (forwarded[0], "inferred") if forwarded[0] else (target, UNSURE)
            # in code a default build leaves out, a call is possible: it runs in another build
            cfg = off.reason(site.line)
            own = same_impl_method(parsed, site) if target is None else None
            if own is not None:  # `self.m()` in one of two impls of a trait for a type
                collector.add(
                    Edge(EdgeKind.CALLS, source,
                         ids.of_symbol(own.qualified_name, ordinal=own.ordinal, path=parsed.path),
                         resolution=Resolution.NAME if cfg else Resolution.INFERRED,
                         lines=(site.line,), via=cfg)
                )  # fmt: skip
                continue
            if target is None:
                outside = resolver.external_call(site.value, site.scope)
                if outside is None:
                    unresolved.add(source, site.callee[-1], "rust:unresolved")
                else:
                    collector.add(
                        Edge(EdgeKind.CALLS, source, outside, external=True,
                             resolution=Resolution.NAME if cfg else Resolution.EXACT,
                             lines=(site.line,), via=cfg)
                    )  # fmt: skip
                continue
            if tier != UNSURE:
                collector.add(
                    Edge(EdgeKind.CALLS, source, _target_id(target, ids, context.project),
                         resolution=Resolution.NAME if cfg else _TIERS[tier], lines=(site.line,),
                         via=cfg)
                )  # fmt: skip
            via = f"dispatch via `{'::'.join(target.split('::')[-2:])}`"
            overrides = dispatch_targets(resolver, target, context.project.impls)
            method = resolver.lookups.symbol(target) if tier == UNSURE else None
            if method is not None and method.declared_as != "required":
                overrides.insert(0, target)  # the trait's default body, where no impl has one
            for override in overrides:
                collector.add(
                    Edge(EdgeKind.CALLS, source, _target_id(override, ids, context.project),
                         resolution=Resolution.DISPATCH, lines=(site.line,), via=via)
                )  # fmt: skip
        return FileLinks.build(
            parsed.path, collector.edges(), dict(unresolved.sites),
            frozenset(lookups.modules_consulted), frozenset(lookups.names_consulted),
            unresolved.names(), dict(unresolved.kinds),
        )  # fmt: skip


def _off_modules(index: RepositoryIndex, project: RustProject) -> frozenset[str]:
    """The modules a default build lacks: each `mod x;` declaring it is switched off (`#[cfg(
    feature = "std")] pub mod io;` beside `#[cfg(not(feature = "std"))] mod io;` declares `io`
    in either build)."""
    off: set[str] = set()
    kept: set[str] = set()
    for name, info in index.modules.items():
        if not name.endswith(".rs"):
            continue
        build = project.builds.get(crate_of(name)[0])
        dropped = set(switched_off(info.parsed.conditions, build))
        for span in info.parsed.conditions:
            if span[3]:
                (off if span in dropped else kept).add(f"{module_path(name)}::{span[3]}")
    return frozenset(off - kept)


def _live_definitions(
    index: RepositoryIndex, project: RustProject
) -> tuple[frozenset[str], dict[str, tuple[str, int]]]:
    """Names defined more than once in code a default build keeps (two impls' `m`), and for a
    name whose first definition it leaves out (`#[cfg(feature = "std")] fn f` after a
    `#[cfg(not(feature = "std"))] fn f`) the file and ordinal of the first one it keeps."""
    counts: Counter[str] = Counter()
    kept: dict[str, tuple[str, int]] = {}
    for info in index.modules.values():
        repeated = {s.qualified_name for s in info.parsed.symbols if s.ordinal > 1}
        off = _SwitchedOff(info.parsed, project) if repeated else None
        for symbol in info.parsed.symbols:
            if symbol.qualified_name not in repeated:
                continue
            if off is not None and off.reason(symbol.start_line) is not None:
                continue
            counts[symbol.qualified_name] += 1
            if counts[symbol.qualified_name] == 1 and symbol.ordinal > 1:
                kept[symbol.qualified_name] = (info.parsed.path, symbol.ordinal)
    return frozenset(q for q, count in counts.items() if count > 1), kept


def _dead_definitions(index: RepositoryIndex, project: RustProject) -> frozenset[str]:
    """Names each definition of which a default build leaves out (a fallback trait under
    `#[cfg(not(feature = "equivalent"))]`): a path to one may name a re-export instead."""
    dead: set[str] = set()
    live: set[str] = set()
    for info in index.modules.values():
        if not info.parsed.conditions:
            continue
        off = _SwitchedOff(info.parsed, project)
        for symbol in info.parsed.symbols:
            (dead if off.reason(symbol.start_line) is not None else live).add(symbol.qualified_name)
    dead -= live
    if dead:
        for info in index.modules.values():
            if not info.parsed.conditions:
                dead.difference_update(s.qualified_name for s in info.parsed.symbols)
    return frozenset(dead)


def _target_id(target: str, ids: NodeIds, project: RustProject) -> str:
    """The node of a resolved target: of a name defined twice, the definition a default build
    keeps."""
    kept = project.kept.get(target)
    if kept is None:
        return ids.of_target(target)
    return ids.of_symbol(target, ordinal=kept[1], path=kept[0])


class _Callers:
    """The node a call site's scope names. A name the file defines twice (three impls of
    `IntoIterator` for `&Map`, `&mut Map` and `Map` each define `Map::IntoIterator::
    into_iter`) is a node per definition (`Symbol.ordinal`): the call belongs to the one whose
    lines hold it, not always the first."""

    def __init__(self, parsed: ParsedFile, ids: NodeIds) -> None:
        self._parsed = parsed
        self._ids = ids
        self._spans: dict[str, list[tuple[int, int, int]]] = {}
        for symbol in parsed.symbols:
            if symbol.ordinal > 1:
                self._spans.setdefault(symbol.qualified_name, [])
        for symbol in parsed.symbols:
            if symbol.qualified_name in self._spans:
                self._spans[symbol.qualified_name].append(
                    (symbol.start_line, symbol.end_line, symbol.ordinal)
                )

    def __call__(self, scope: str, line: int) -> str:
        spans = self._spans.get(scope)
        if spans:
            held = [span for span in spans if span[0] <= line <= span[1]]
            if held:
                ordinal = min(held, key=lambda span: span[1] - span[0])[2]
                return self._ids.of_symbol(scope, ordinal=ordinal, path=self._parsed.path)
        return self._ids.of_scope(self._parsed, scope)


class _SwitchedOff:
    """The lines of a file that its crate's default build leaves out (`cfg`). A file whose
    `mod x;` is switched off (`#[cfg(feature = "rayon")] mod rayon;`) keeps its lines: another
    target may compile it (a test's `#[path = "../src/lexical/mod.rs"] mod lexical;`); only
    imports of it from code switched off are dropped (`_lacked`)."""

    def __init__(self, parsed: ParsedFile, project: RustProject) -> None:
        self.build = project.builds.get(crate_of(parsed.path)[0])
        self._spans = switched_off(parsed.conditions, self.build)
        self._off_modules = project.off_modules

    def off_module(self, module: str) -> str | None:
        """The switched-off module `module` is or is in, or None."""
        return next(
            (off for off in self._off_modules if module == off or module.startswith(f"{off}::")),
            None,
        )

    def reason(self, line: int) -> str | None:
        """`via` for an edge from `line`: the `cfg` that switches it off, or None."""
        for start, end, predicate, _module in self._spans:
            if start <= line <= end:
                return f"under `cfg({predicate})`, off in a default build"
        return None


def _link_imports(
    parsed: ParsedFile, resolver: RustResolver, ids: NodeIds, collector: EdgeCollector,
    off: _SwitchedOff,
) -> None:  # fmt: skip
    source = ids.of_module(parsed)
    index = resolver.lookups.index
    for statement in parsed.imports:
        switched_off = off.reason(statement.line) is not None
        if switched_off and not statement.module:
            continue  # `extern crate x` in code a default build leaves out declares nothing
        name = statement.name or ""
        head = split_path(statement.module) if statement.module else ()
        path = head if name == "*" else (*head, name)
        found = resolver.resolve(path, statement.scope) if path else None
        if found is None and name != "*" and len(head) > 1:
            # `use crate::MinMax::{Some, NoElements}`: an enum's variants are the enum's
            owner = resolver.resolve(head, statement.scope)
            symbol = resolver.lookups.symbol(owner) if owner else None
            found = owner if symbol is not None and symbol.declared_as == "enum" else None
        target: str | None = None
        if found is not None:
            target = resolver.project.files.get(found) or index.symbol_module.get(found)
        elif path:
            target = resolver.const_file(path, statement.scope)
        if switched_off and _lacked(target or "", found, path, statement.scope, resolver, off):
            # a `use` there names what it names, unless a default build lacks that: a module
            # switched off too, a crate that is no dependency without a feature
            continue
        if target is None:
            crate = resolver.outside_crate(path, statement.scope) if path else None
            if crate is not None:
                collector.add(
                    Edge(EdgeKind.IMPORTS, source, crate, external=True,
                         lines=(statement.line,), names=(name,))
                )  # fmt: skip
        elif (
            target != parsed.module or statement.scope != parsed.module
            or (found is not None and found not in resolver.project.files)
        ):  # fmt: skip
            # an inline module's import of its own file's items (`mod tests { use super::*; }`),
            # a file's of its own enum's variants (`use self::Needed::*;`)
            collector.add(
                Edge(EdgeKind.IMPORTS, source, ids.of_target(target), lines=(statement.line,),
                     names=(name,))
            )  # fmt: skip


def _lacked(
    target: str, found: str | None, path: Path, holder: str, resolver: RustResolver,
    off: _SwitchedOff,
) -> bool:  # fmt: skip
    """Whether a default build lacks what an import names: a file of ours in a module it
    leaves out, an item of ours each definition of which it leaves out, or another crate that
    is none of its dependencies."""
    if target:
        if target.endswith(".rs") and off.off_module(module_path(target)) is not None:
            return True
        info = resolver.lookups.module(target) if found is not None else None
        if info is None or found in resolver.project.files:
            return False
        lines = [s.start_line for s in info.parsed.symbols if s.qualified_name == found]
        item = _SwitchedOff(info.parsed, resolver.project)
        return bool(lines) and all(item.reason(line) is not None for line in lines)
    outside = resolver.outside_path(path, holder) if path else None
    if outside is not None and host_lacks(outside):
        return True  # `core::arch::x86` on x86_64 (`cfg_names`)
    crate = outside[0] if outside else None
    return crate is not None and off.build is not None and off.build.lacks(crate)


def _link_impls(
    parsed: ParsedFile, resolver: RustResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    """`impl Trait for Type`: the type INHERITS the trait (`implements`)."""
    for symbol in parsed.symbols:
        if symbol.declared_as != "impl" or symbol.ordinal != 1:
            continue
        owner = resolver.lookups.symbol(symbol.parent)
        if owner is None:
            continue
        for position, trait in enumerate(symbol.implements):
            found = resolver.resolve(trait, symbol.parent) or resolver.resolve(trait, parsed.module)
            trait_symbol = resolver.lookups.symbol(found) if found else None
            internal = trait_symbol is not None and trait_symbol.kind == SymbolKind.CLASS
            collector.add(
                Edge(
                    EdgeKind.INHERITS, ids.of_target(owner.qualified_name),
                    ids.of_target(found) if internal and found else joined(trait),
                    external=not internal, lines=(symbol.start_line,), index=position,
                    implements=True,
                )
            )  # fmt: skip


def _link_type_uses(
    parsed: ParsedFile, resolver: RustResolver, ids: NodeIds, collector: EdgeCollector
) -> None:
    for use in parsed.type_uses:
        found = resolver.resolve(use.type_name, use.scope)
        symbol = resolver.lookups.symbol(found) if found else None
        if symbol is None or symbol.kind != SymbolKind.CLASS or found == use.scope:
            continue
        collector.add(
            Edge(EdgeKind.USES_TYPE, ids.of_scope(parsed, use.scope), ids.of_target(found or ""),
                 lines=(use.line,))
        )  # fmt: skip
