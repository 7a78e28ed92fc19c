"""Where a Rust path or method call leads: the repository's crates and modules
(`project.RustProject`, made once per run), each module's names (`paths.Scope`, from its file's
`use` items and declarations) and the declared types of values (`RustResolver.type_of`).

A path resolves, in order: as the module says (`crate::`, `self::`, `super::`, `Self`, a
name it declares or `use`s); through a crate's own name (`semver::Version`, Cargo.toml's
`[package] name` or `[lib] name`, `-` read as `_`) to that crate's folder; through a module's
re-exports (`pub use` and `use` items of the module the path ends in, followed up to
`_DEPTH` times: `crate::Version` where lib.rs has `pub use version::Version`); through the
module's globs (`use super::*`). Each path's last name and each method name
looked up is recorded (`Lookups.names_consulted`), so an impl or item of that name appearing
in another file links this one again in an incremental run. A method resolves on its
receiver's type: the type's own
`impl` methods, the methods of its trait impls, and their traits' default methods; a value
typed as a trait (`dyn Trait`, `impl Trait`, `&T` where T is a trait) reaches the trait's
declaration.
"""

from __future__ import annotations

import re

from ...linking.index import Lookups
from ...model import (
    Attribute,
    Awaited,
    Binding,
    Call,
    CallSite,
    Expr,
    InstanceOf,
    Name,
    ParsedFile,
    Subscript,
    Symbol,
    SymbolKind,
)
from .cfg import switched_off
from .conventions import BUILTIN_METHODS
from .entries import is_entry
from .entry_types import entry_type
from .loops import ITEM
from .modules import crate_of, module_path
from .option_closures import RECEIVER
from .parser import SITE
from .paths import Path, Scope, crate_root, joined, split_path
from .places import PLACE, place_expression
from .pointers import POINTERS, STD_POINTER_METHODS
from .prelude import PRELUDE, PRELUDE_ROOTS, PRELUDE_TRAITS
from .primitives import std_inherent
from .project import RustProject
from .slices import INDEX, SLICE, slice_holders
from .syntax import GLOBAL, TRY
from .tuples import RESULT

__all__ = ["UNSURE", "RustResolver"]

_DEPTH = 4
UNSURE = "dispatch"  # `call_and_tier`: a trait's method whose impl is not known (no certain edge)
_STD = frozenset({"std", "core", "alloc"})
_SAME_TYPE = frozenset(
    {"clone", "to_owned", "unwrap", "expect", "unwrap_or", "unwrap_or_else", "unwrap_or_default",
     "unwrap_unchecked", "as_ref", "as_mut", "borrow", "borrow_mut", "as_deref", "as_deref_mut"}
)  # fmt: skip
"""std's methods whose result has the methods of their receiver's type as the resolver types
it (`Option` / `Result` / references already unwrapped): `x.clone()`, `f().unwrap()`."""
_BUILTIN = re.compile(r"&*(\[.*\]|[iu](8|16|32|64|128|size)|f32|f64|bool|char|str)|\*(const|mut) _")


class RustResolver:
    """Resolution for one file (see the module's docstring)."""

    def __init__(self, parsed: ParsedFile, lookups: Lookups, project: RustProject) -> None:
        self.parsed = parsed
        self.lookups = lookups
        self.project = project
        self._scopes: dict[str, Scope] = {}  # module path -> its names
        # a chain's calls share their start byte (`a.b().c()`): the outermost, read first, is
        # the value a `let` binds
        self._sites = {site.at: site for site in reversed(parsed.calls)}
        self._chains: dict[int, list[CallSite]] = {}  # per start byte, outermost first
        for site in parsed.calls:
            self._chains.setdefault(site.at, []).append(site)
        self._own = {symbol.qualified_name: symbol for symbol in parsed.symbols}
        self._inline = [s for s in parsed.symbols if s.declared_as == "module"]
        self._asking: set[tuple[Path, str]] = set()  # associated types being worked out
        self._asking_alias: set[str] = set()  # `type` aliases being followed
        self._blocks: dict[str, Scope] = {}  # a function -> the `use` items of its body
        for statement in parsed.imports:
            symbol = self._own.get(statement.scope)
            if symbol is not None and symbol.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD):
                block = self._blocks.setdefault(statement.scope, Scope((), ()))
                full: Path = (*split_path(statement.module), statement.name or "")
                if statement.name == "*":
                    block.globs.append(full[:-1])
                else:
                    block.uses[statement.alias or statement.name or ""] = full
        for binding in parsed.bindings:  # a body's `type HS = HashSet<i32>;` names a type there
            if binding.target[:1] == ("type",) and len(binding.target) == 2:
                block = self._blocks.setdefault(binding.scope, Scope((), ()))
                block.uses[binding.target[1]] = binding.value
        self._bindings: dict[str, list[Binding]] = {}
        for binding in parsed.bindings:
            if len(binding.target) == 1:
                self._bindings.setdefault(binding.scope, []).append(binding)

    # -- modules -------------------------------------------------------------------------------
    def scope_of(self, holder: str) -> Scope:
        """The names of the module that holds a scope (a file module, an inline module, or
        any symbol inside one)."""
        module = self._module_of(holder)
        return self.module_scope(module) or Scope(tuple(module.split("::")), ())

    def _module_of(self, holder: str) -> str:
        """The module a scope of this file sits in: the innermost inline module around its
        declaration, else the file's."""
        symbol = self._own.get(holder)
        line = symbol.start_line if symbol is not None else 0
        best: Symbol | None = None
        for module in self._inline:
            if module.start_line <= line <= module.end_line and (
                best is None or module.start_line >= best.start_line
            ):
                best = module
        return best.qualified_name if best is not None else module_path(self.parsed.path)

    def module_scope(self, path: str) -> Scope | None:
        """A module's names, by its path (`crate::model`): its file's, or an inline one's."""
        if path in self._scopes:
            return self._scopes[path]
        file_module = self.project.files.get(path)
        holder = file_module
        parsed: ParsedFile | None = None
        if file_module is not None:
            info = self.lookups.module(file_module)
            parsed = info.parsed if info is not None else None
        else:
            symbol = self.lookups.symbol(path)
            if symbol is not None and symbol.declared_as == "module":
                info = self.lookups.module(self.lookups.index.symbol_module[path])
                parsed = info.parsed if info is not None else None
                holder = path
        if parsed is None or holder is None:
            return None
        scope = Scope(tuple(path.split("::")), crate_root(parsed.path))
        off = switched_off(parsed.conditions, self.project.builds.get(crate_of(parsed.path)[0]))
        scope.items.update(self.project.children.get(path, ()))
        for symbol in parsed.symbols:
            if symbol.parent == holder:
                scope.items.add(symbol.name)
        for binding in parsed.bindings:
            if binding.scope == holder and len(binding.target) == 1:
                scope.consts.add(binding.target[0])
        for statement in parsed.imports:
            if statement.scope != holder or any(a <= statement.line <= b for a, b, *_ in off):
                continue  # a `use` a default build leaves out binds nothing
            name = statement.name or ""
            full: Path = (*split_path(statement.module), name) if statement.module else (name,)
            if statement.name == "*":
                scope.globs.append(full[:-1])
            else:
                scope.uses[statement.alias or statement.name or ""] = full
        self._scopes[path] = scope
        return scope

    # -- paths ---------------------------------------------------------------------------------
    def resolve(self, parts: Path, holder: str, self_type: Path | None = None) -> str | None:
        """The qualified name of the item a path written in `holder` names, or None."""
        # an item of that name appearing or going anywhere may change the answer: the
        # incremental run links this file again (`ingest.incremental.files_to_relink`)
        self.lookups.names_consulted.update(parts[-1:])
        bound, found = self._through_blocks(parts, holder)
        if bound:
            return found
        scope = self.scope_of(holder)
        found = self._absolute(scope.absolute(parts, self_type), 0)
        if found is None and len(parts) >= 1 and parts[0] not in ("crate", "self", "super"):
            for glob in scope.globs:
                found = self._absolute((*glob, *parts), 0)
                if found is not None:
                    break
        return found

    def _through_blocks(self, parts: Path, holder: str) -> tuple[bool, str | None]:
        """A path whose head a `use` in the body of `holder` (or of a function around it)
        binds: (True, the item or None); (False, None) where no such `use` binds it. A body's
        `use` shadows the module's names, in the body and the functions nested in it."""
        if not self._blocks or not parts or parts[0] in ("crate", "self", "super", "Self"):
            return False, None
        name = holder
        while (symbol := self._own.get(name)) is not None and symbol.kind in (
            SymbolKind.FUNCTION, SymbolKind.METHOD
        ):  # fmt: skip
            block = self._blocks.get(name)
            if block is not None:
                if parts[0] in block.uses:
                    return True, self._absolute((*block.uses[parts[0]], *parts[1:]), 0)
                for glob in block.globs:
                    found = self._absolute((*glob, *parts), 0)
                    if found is not None:
                        return True, found
            name = symbol.parent
        return False, None

    def absolute(self, path: Path) -> str | None:
        """The item an absolute path names, through crate names and re-exports."""
        return self._absolute(path, 0)

    def _absolute(self, path: Path, depth: int) -> str | None:
        if not path or depth > _DEPTH:
            return None
        name = joined(path)
        if self.lookups.symbol(name) is not None or name in self.project.files:
            if name in self.project.dead:
                # `#[cfg(not(feature = "x"))] pub trait T` beside `#[cfg(feature = "x")] pub
                # use x::T;`: a default build has the re-export
                scope = self.module_scope(joined(path[:-1])) if len(path) > 1 else None
                if scope is not None and path[-1] in scope.uses:
                    return self._absolute(scope.uses[path[-1]], depth + 1)
            return name
        crate = self.project.crates.get(path[0])
        if crate is not None and crate != path[0]:
            return self._absolute((crate, *path[1:]), depth + 1)
        # a re-export, or an item of a type (`Type::f`): through the longest known prefix
        for cut in range(len(path) - 1, 0, -1):
            prefix = joined(path[:cut])
            scope = self.module_scope(prefix)
            if scope is not None:
                head = path[cut]
                if head in scope.uses:
                    return self._absolute((*scope.uses[head], *path[cut + 1 :]), depth + 1)
                for glob in scope.globs:
                    found = self._absolute((*glob, *path[cut:]), depth + 1)
                    if found is not None:
                        return found
                return None
            target = self._absolute(path[:cut], depth + 1) if cut < len(path) else None
            target = self._aliased(target) or target if target is not None else None
            if target is not None and target != prefix:
                return self._absolute((*target.split("::"), *path[cut:]), depth + 1)
        return None

    def const_file(self, parts: Path, holder: str) -> str | None:
        """The file declaring the `const` or `static` a path names (`crate::PAD_BYTE`)."""
        path = self.scope_of(holder).absolute(parts)
        if len(path) < 2:
            return None
        prefix = self._absolute(path[:-1], 0) or joined(path[:-1])
        scope = self.module_scope(prefix)
        if scope is None or path[-1] not in scope.consts:
            return None
        return self.project.files.get(prefix) or self.lookups.index.symbol_module.get(prefix)

    def outside_crate(self, parts: Path, holder: str) -> str | None:
        """The other crate a path that names nothing of ours leads to (`std`, `serde`,
        `crate::alloc::…` through the root's `extern crate alloc`), or None."""
        path = self.outside_path(parts, holder)
        return path[0] if path else None

    def outside_path(self, parts: Path, holder: str) -> Path | None:
        """`outside_crate`'s path in the other crate (`crate::lib::std::mem::swap` through
        `pub use core::mem` in `lib::std`: `core::mem::swap`), or None."""
        own = self.scope_of(holder)
        path = _unglobal(own.absolute(parts))
        if path == parts and path[:1] and path[0] in PRELUDE_ROOTS and path[0] not in own.items:
            path = (*PRELUDE_ROOTS[path[0]], *path[1:])  # `use Option::{Some as Ready}`
        for _ in range(_DEPTH):
            if not path or path[0] in self.project.crates:
                return None
            if joined(path[:1]) not in self.project.files:
                return path
            for cut in range(len(path) - 1, 0, -1):
                scope = self.module_scope(joined(path[:cut]))
                if scope is not None and path[cut] in scope.uses:
                    path = (*scope.uses[path[cut]], *path[cut + 1 :])
                    break
            else:
                return None
        return None

    def external_call(self, call: Call, holder: str) -> str | None:
        """The other crate's function a path call names (`std::mem::swap(a, b)`, `Vec::new()`,
        `serde_json::to_string(x)` through a `use`), as an absolute path; None where the path
        is ours, a generic parameter's, or not known to lead out (a method call)."""
        callee = call.callee
        if not isinstance(callee, Name) or not callee.dotted:
            return None
        parts = callee.dotted
        if parts[-1][:1].isupper():
            return None  # `Either::Left(x)`, `Some(x)`, `Wrapping(n)`: a constructor, no call
        if len(parts) == 2 and parts[0] in PRELUDE_TRAITS:
            return None  # `Default::default()`: some impl's body, maybe ours (`UNSURE`)
        path: Path | None = None
        name = holder
        while path is None and (symbol := self._own.get(name)) is not None and symbol.kind in (
            SymbolKind.FUNCTION, SymbolKind.METHOD
        ):  # fmt: skip
            block = self._blocks.get(name)
            if block is not None and parts[0] in block.uses:
                path = (*block.uses[parts[0]], *parts[1:])
            name = symbol.parent
        scope = self.scope_of(holder)
        if path is None:
            path = scope.absolute(parts)
        if path == parts and parts[0] in PRELUDE and parts[0] not in scope.items:
            path = (*PRELUDE[parts[0]], *parts[1:])
        as_written = path == parts and not path[0].startswith(GLOBAL)  # `::std::…` leads out
        if len(path) < 2 or (as_written and path[0] not in _STD):
            return None  # as written: a local name, `T::f`, nothing known to lead out
        outside = self.outside_path(path, holder)
        return joined(outside) if outside else None

    # -- methods -------------------------------------------------------------------------------
    def method(self, owner: str, name: str) -> str | None:
        """The method `name` a value of the type (or trait) `owner` runs."""
        self.lookups.names_consulted.add(name)
        own = [
            q for holder in (owner, *self._aliases().get(owner, ()))
            for q in self.lookups.members(holder, name) if self._is_function(q)
        ]  # fmt: skip
        if own:
            return own[0]
        kind = owner.rpartition("::")[2]
        if self.lookups.symbol(owner) is None and (
            name in BUILTIN_METHODS or not _BUILTIN.fullmatch(kind)
            or (kind in POINTERS and name in STD_POINTER_METHODS)
        ):  # fmt: skip
            # a type none of ours: a built-in (`parser._builtin_type`) has our impls, but
            # std's own method of the name comes first; a blanket impl's `T` says nothing
            return None
        if owner.endswith(f"::{SLICE}"):  # some slice: the one method of the crate's slice impls
            holders = slice_holders(self.lookups.index.members, owner[: -len(SLICE) - 2])
            methods = {m for holder in holders if (m := self.method(holder, name)) is not None}
            return methods.pop() if len(methods) == 1 else None
        for impl_name in self._impls(owner):
            found = [q for q in self.lookups.members(impl_name, name) if self._is_function(q)]
            if found:
                # two impls of one trait for one type (`Compare<&str>`, `Compare<&[u8]>`):
                # which one runs depends on argument types not read here
                return None if found[0] in self.project.repeated else found[0]
        for impl_name in self._impls(owner):
            impl = self.lookups.symbol(impl_name)
            for trait in impl.implements if impl is not None else ():
                resolved = self._absolute(trait, 0)
                if resolved is not None:
                    found = [q for q in self.lookups.members(resolved, name)
                             if self._is_function(q)]  # fmt: skip
                    if found:
                        return found[0]
        return None

    def _of_trait(self, qualified: str) -> bool:
        symbol = self.lookups.symbol(qualified)
        parent = self.lookups.symbol(symbol.parent) if symbol is not None else None
        return parent is not None and parent.declared_as == "trait"

    def _trait_method(self, owner: str, path: Path) -> str | None:
        """`path` is `…::Trait::m`: the `m` of `owner`'s impl of a trait of that last name
        (the trait may be std's: `Display::fmt(self, f)`), if only one impl defines it."""
        if len(path) < 2:
            return None
        self.lookups.names_consulted.add(path[-1])
        found: list[str] = []
        for impl_name in self._impls(owner):
            impl = self.lookups.symbol(impl_name)
            if impl is None or not impl.implements or impl.implements[0][-1] != path[-2]:
                continue
            found += [q for q in self.lookups.members(impl_name, path[-1]) if self._is_function(q)]
        if len(found) != 1 or found[0] in self.project.repeated:
            return None
        return found[0]

    def _impls(self, owner: str) -> list[str]:
        index = self.lookups.index
        return [
            q for holder in (owner, *self._aliases().get(owner, ()))
            for names in index.members.get(holder, {}).values() for q in names
            if (s := index.symbols.get(q)) is not None and s.declared_as == "impl"
        ]  # fmt: skip

    def _aliases(self) -> dict[str, tuple[str, ...]]:
        """Per type, the other names its impls hang under: an impl's type is made absolute by
        its own file's `use` items alone, so one written through a re-export names no
        symbol."""
        if self.project.aliases is None:
            found: dict[str, list[str]] = {}
            index = self.lookups.index
            for holder in list(index.members):
                if "::" not in holder or holder in index.symbols or holder in self.project.files:
                    continue
                target = self._absolute(split_path(holder), 0)
                if target is not None and target != holder and target in index.symbols:
                    found.setdefault(target, []).append(holder)
            self.project.aliases = {k: tuple(v) for k, v in found.items()}
        return self.project.aliases

    def _is_function(self, qualified: str) -> bool:
        symbol = self.lookups.symbol(qualified)
        return symbol is not None and symbol.kind in (SymbolKind.METHOD, SymbolKind.FUNCTION)

    def owner_type(self, scope: str) -> Path | None:
        """The type `self` and `Self` mean in a scope of this file: its impl's type (or the
        trait, in a trait's default method)."""
        symbol = self._own.get(scope)
        while symbol is not None and symbol.kind == SymbolKind.FUNCTION:
            symbol = self._own.get(symbol.parent)
        if symbol is None:
            return None
        if symbol.kind == SymbolKind.METHOD:
            parent = self._own.get(symbol.parent) or self.lookups.index.symbols.get(symbol.parent)
            if parent is not None and parent.declared_as == "impl":
                return tuple(parent.parent.split("::"))
            return tuple(symbol.parent.split("::"))
        if symbol.kind == SymbolKind.CLASS and symbol.declared_as != "module":
            name = symbol.parent if symbol.declared_as == "impl" else symbol.qualified_name
            return tuple(name.split("::"))
        return None

    # -- types ---------------------------------------------------------------------------------
    def type_of(self, expr: Expr, scope: str, line: int, depth: int = 0) -> str | None:
        """The qualified name of the type (or trait) of an expression's value, or None."""
        if depth > 8:
            return None
        if isinstance(expr, Name):
            if expr.dotted == ("self",):
                owner = self.owner_type(scope)
                if owner is None:
                    return None
                # `impl Trait for Graph` after `use crate::Graph;` (a re-export): the type itself
                found = self._absolute(owner, 0)
                return found if found is not None and self.lookups.symbol(found) else joined(owner)
            if len(expr.dotted) == 1:
                return self._local_type(expr.dotted[0], scope, line, depth)
            return self._made(expr.dotted, scope)
        if isinstance(expr, Attribute):
            if expr.name == TRY:
                return self.type_of(expr.value, scope, line, depth + 1)
            if (part := is_entry(expr.name)) is not None:  # `self.items{1}`: `entries`
                return entry_type(self, expr.value, part, scope, line, depth)
            held = self.type_of(expr.value, scope, line, depth + 1)
            found = self._field_type(held, expr.name) if held else None
            named = expr.value.dotted if isinstance(expr.value, Name) else ()
            if held is None and expr.name.isdigit() and len(named) == 1:
                # `st.0` with `st: &mut (State, State)`: `tuples.tuple_places`
                return self._local_type(f"{named[0]}.{expr.name}", scope, line, depth)
            if found is None and held and expr.value == Name(("self",)):
                # `self.iter.next()` with `iter: I` and `impl<I: Trait> …`: I's bounds
                written = self._field_written(held, expr.name)
                if written is not None and len(written) == 1:
                    return self._local_type(written[0], scope, 1 << 30, depth + 1)
            return found
        if isinstance(expr, Subscript):  # `nodes[i]`, `self.next[0]`: the elements' type
            if isinstance(expr.value, Name) and len(expr.value.dotted) == 1:
                return self._local_type(expr.value.dotted[0] + INDEX, scope, line, depth + 1)
            if isinstance(expr.value, Attribute):
                held = self.type_of(expr.value.value, scope, line, depth + 1)
                return self._field_type(held, expr.value.name + INDEX) if held else None
            return None
        if isinstance(expr, Awaited):
            return self.type_of(expr.value, scope, line, depth + 1)
        if isinstance(expr, InstanceOf) and isinstance(expr.classes, Name):
            return self._type(expr.classes.dotted, scope)
        if isinstance(expr, Call):
            target = self.call_target(expr, scope, line, depth + 1)
            if target is None and isinstance(expr.callee, Name):
                return self._made(expr.callee.dotted, scope)
            if target is None and isinstance(expr.callee, Attribute) and (
                expr.callee.name in _SAME_TYPE
            ):  # fmt: skip
                return self.type_of(expr.callee.value, scope, line, depth + 1)  # `x.clone()`
            return self.result_type(target) if target else None
        return None

    def _made(self, path: Path, scope: str) -> str | None:
        """The type of a value a path makes: a unit or tuple struct (`Unit`, `Pair(1, 2)`),
        or an enum's variant (`Kind::A`, `Kind::B(1)`)."""
        made = self._type(path, scope)
        if made is not None:
            return made
        if len(path) < 2:
            return None
        owner = self._type(path[:-1], scope)
        symbol = self.lookups.symbol(owner) if owner else None
        return owner if symbol is not None and symbol.declared_as == "enum" else None

    def _latest(self, name: str, scope: str, line: int) -> list[Binding]:
        """The bindings of a local name in effect at `line`: those of the latest line before
        it (several for a value of a generic type with several bounds), last-made first."""
        latest: list[Binding] = []
        holder: str | None = scope
        while holder is not None and not latest:
            for binding in self._bindings.get(holder, ()):
                if binding.target != (name,) or binding.line > line:
                    continue
                if not latest or binding.line > latest[0].line:
                    latest = [binding]
                elif binding.line == latest[0].line:
                    latest.insert(0, binding)
            symbol = self.lookups.index.symbols.get(holder)
            if symbol is None or symbol.kind == SymbolKind.CLASS:
                break
            holder = symbol.parent if symbol.kind == SymbolKind.FUNCTION else None
        return latest

    def _local_types(self, name: str, scope: str, line: int, depth: int) -> list[str]:
        """Each type a local name may have at `line` (a generic value's bounds, in order)."""
        found = [self._binding_type(b, depth) for b in self._latest(name, scope, line)]
        return [t for t in found if t is not None]

    def _local_type(self, name: str, scope: str, line: int, depth: int) -> str | None:
        latest = self._latest(name, scope, line)
        if not latest:
            return self._const_type(name, scope)
        for binding in latest:
            found = self._binding_type(binding, depth)
            if found is not None:
                return found
        return None

    def _binding_type(self, latest: Binding, depth: int) -> str | None:
        if depth > 8:  # `xs.iter().map(|xs| xs.f())`: the name's binding asks for itself
            return None
        if latest.kind == "annotation" and (
            latest.value == (SLICE,) or (len(latest.value) == 1 and latest.value[0] in POINTERS)
        ):  # `slices`, `pointers`: some slice or raw pointer, at the crate's root
            return joined((*self.scope_of(latest.scope).root, latest.value[0]))
        if latest.kind == "annotation":
            return self._type(latest.value, latest.scope)
        if latest.kind in ("alias", "enter") and latest.value[:1] == (PLACE,):  # `let x = a.f;`
            line = latest.line - (latest.kind == "alias")  # a loop's: as of its own line
            found = self.type_of(place_expression(latest.value), latest.scope, line, depth + 1)
            if found is None and latest.value[-1] == INDEX:  # `for e in edges`: `loops`
                held = self.type_of(place_expression(latest.value[:-1]), latest.scope, line,
                                    depth + 1)  # fmt: skip
                found = self._field_type(held, ITEM) if held else None
            return found
        if latest.kind == "alias":
            return self.type_of(Name(latest.value), latest.scope, latest.line - 1, depth + 1)
        if latest.kind == "variant":
            return self._payload_type(latest.value, latest.scope)
        if latest.kind == "call" and latest.value[:1] == (SITE,) and len(latest.value) >= 3:
            site = self._sites.get(int(latest.value[1]))  # `let (a, b) = f();`: `tuples`
            if len(latest.value) == 4:  # `a.f().map(|e| …)`: `f()`, inside the chain's `map`
                chain = self._chains.get(int(latest.value[1]), [])
                inner = int(latest.value[3])
                site = chain[inner] if inner < len(chain) else None
            if latest.value[2] == RECEIVER:  # `a.f().and_then(|r| …)`: `option_closures`
                return self.type_of(site.value, site.scope, site.line, depth + 1) if (
                    site is not None and site.value is not None
                ) else None  # fmt: skip
            called = self.call_target(site.value, site.scope, site.line, depth + 1) if (
                site is not None and isinstance(site.value, Call)
            ) else None  # fmt: skip
            if called is None:
                return None
            if latest.value[2] == ITEM:  # `for e in g.edges()`: the result's `type Item`
                held = self.result_type(called)
                return self._field_type(held, ITEM) if held else None
            return self._field_type(called, RESULT + latest.value[2])
        if latest.kind == "call" and latest.value[:1] == (SITE,):
            site = self._sites.get(int(latest.value[1]))
            if site is not None and site.value is not None:
                return self.type_of(site.value, site.scope, site.line, depth + 1)
        return None

    def _const_type(self, name: str, holder: str) -> str | None:
        """The declared type of a `const` or `static` a name means in `holder`'s module: its
        own, or one a `use` brings in (through re-exports): `STANDARD.decode(x)`."""
        scope = self.scope_of(holder)
        path = (*scope.module, name) if name in scope.consts else scope.absolute((name,))
        for _ in range(_DEPTH):
            if len(path) < 2:
                return None
            module = self._absolute(path[:-1], 0) or joined(path[:-1])
            owner = self.module_scope(module)
            if owner is None:
                return None
            if path[-1] in owner.consts:
                file = self.project.files.get(module)
                info = self.lookups.module(file or self.lookups.index.symbol_module.get(module, ""))
                if info is None:
                    return None
                for binding in info.parsed.bindings:
                    if binding.scope == (file or module) and binding.target == path[-1:]:
                        return self._foreign_type(binding.value, binding.scope, info.parsed)
                return None
            if path[-1] not in owner.uses:
                return None
            path = owner.uses[path[-1]]
        return None

    def _type(self, written: Path, holder: str, nested: bool = False) -> str | None:
        found = self.resolve(written, holder, self.owner_type(holder))
        if found is None:
            return None if nested else self._associated(written, holder)
        symbol = self.lookups.symbol(found)
        if symbol is not None and symbol.declared_as == "type alias":
            return self._aliased(found)
        return found if symbol is not None and symbol.kind == SymbolKind.CLASS else None

    def _aliased(self, qualified: str) -> str | None:
        """The type a `type` alias of ours names, where that is a type of ours; else None."""
        symbol = self.lookups.symbol(qualified)
        if symbol is None or symbol.declared_as != "type alias" or qualified in self._asking_alias:
            return None
        self._asking_alias.add(qualified)  # `type A = B; type B = A;` ends
        try:
            return self._field_type(qualified, "=")
        finally:
            self._asking_alias.discard(qualified)

    def _associated(self, written: Path, holder: str) -> str | None:
        """`Self::Config`, `E::Config` (`E: Engine`): the type an impl gives the associated
        type, or the first trait a trait's declaration bounds it by."""
        if len(written) < 2:
            return None
        owner: str | None
        if written[:-1] == ("Self",):
            path = self.owner_type(holder)
            owner = joined(path) if path else None
        else:
            owner = self._type(written[:-1], holder, nested=True)
            if owner is None and len(written) == 2 and (written, holder) not in self._asking:
                # a local's bounds may name this associated type again (`T::Item` where
                # `T: Trait<Item = T::Item>`): asked once at a time, no endless loop
                self._asking.add((written, holder))
                try:
                    owner = self._local_type(written[0], holder, 1 << 30, 7)
                finally:
                    self._asking.discard((written, holder))
        return self._field_type(owner, written[-1]) if owner else None

    def _payload_type(self, variant: Path, holder: str) -> str | None:
        """The type of the one value an enum's variant holds (`Entry::Vacant`, or `Vacant`
        after `use Entry::*`-like imports)."""
        written = self.scope_of(holder).absolute(variant) if len(variant) == 1 else variant
        if len(written) < 2:
            return None
        enum = self._type(written[:-1], holder, nested=True)
        symbol = self.lookups.symbol(enum) if enum is not None else None
        if symbol is None or symbol.declared_as != "enum":
            return None
        return self._field_type(symbol.qualified_name, f"{written[-1]}(0)")

    def _field_type(self, owner: str, name: str) -> str | None:
        module = self.lookups.index.symbol_module.get(owner)
        info = self.lookups.module(module) if module is not None else None
        if info is None:
            return None
        for binding in info.parsed.bindings:
            if binding.scope == owner and binding.target == (name,):
                return self._foreign_type(binding.value, owner, info.parsed)
        return None

    def _field_written(self, owner: str, name: str) -> Path | None:
        """A field's type as written in its struct (a type parameter's name, say)."""
        module = self.lookups.index.symbol_module.get(owner)
        info = self.lookups.module(module) if module is not None else None
        for binding in info.parsed.bindings if info is not None else ():
            if binding.scope == owner and binding.target == (name,):
                return binding.value
        return None

    def _foreign_type(self, written: Path, holder: str, parsed: ParsedFile) -> str | None:
        """A type written in another file, resolved as that file resolves it."""
        if parsed.path == self.parsed.path:
            return self._type(written, holder)
        other = RustResolver(parsed, self.lookups, self.project)
        other._scopes = self._scopes
        other._asking_alias = self._asking_alias
        return other._type(written, holder)

    def result_type(self, target: str) -> str | None:
        """The type a call of a function returns, as declared (`Self` its impl's type)."""
        symbol = self.lookups.symbol(target)
        if symbol is None or symbol.returns is None:
            return None
        module = self.lookups.index.symbol_module[target]
        info = self.lookups.module(module)
        if info is None:
            return None
        return self._foreign_type(symbol.returns, symbol.qualified_name, info.parsed)

    # -- calls ---------------------------------------------------------------------------------
    def call_target(self, call: Call, scope: str, line: int, depth: int = 0) -> str | None:
        """The function a call runs, where its path or its receiver's type says."""
        found, _ = self.call_and_tier(call, scope, line, depth)
        return found

    def call_and_tier(
        self, call: Call, scope: str, line: int, depth: int = 0
    ) -> tuple[str | None, str]:
        callee = call.callee
        if isinstance(callee, Name):
            found = self._path_call(callee.dotted, scope)
            if found is None and len(callee.dotted) == 2:
                # `E::standard()` with `E: EngineWrapper`: a bound trait's function
                for bound in self._local_types(callee.dotted[0], scope, line, depth + 1):
                    symbol = self.lookups.symbol(bound)
                    own = self.method(bound, callee.dotted[1])
                    if symbol is not None and symbol.declared_as == "trait" and own is not None:
                        return own, "inferred"
            if call.arguments and (found is None or self._of_trait(found)):
                # `Trait::m(x)`: the impl of the trait for x's type, where that is known
                owner = self.type_of(call.arguments[0][1], scope, line, depth + 1)
                own = self._trait_method(owner, callee.dotted) if owner else None
                if own is not None:
                    return own, "inferred"
            if found is not None and len(callee.dotted) >= 2 and self._of_trait(found):
                # `Float::copysign(p, p)`, `Zero::zero()` with no type known: the body that
                # runs is some impl's (`dispatch`), not certainly the trait's
                return found, UNSURE
            return found, "exact"
        if isinstance(callee, Attribute) and callee.name != TRY:
            value = callee.value
            if isinstance(value, Name) and len(value.dotted) == 1 and value.dotted != ("self",):
                # a value of a generic type: the first of its bounds with the method
                for owner in self._local_types(value.dotted[0], scope, line, depth + 1):
                    found = self.method(owner, callee.name)
                    if found is not None:
                        return found, "inferred"
            owner = self.type_of(value, scope, line, depth + 1)
            return (self.method(owner, callee.name) if owner else None), "inferred"
        return None, "exact"

    def _path_call(self, path: Path, scope: str) -> str | None:
        holder: str | None = scope
        while len(path) == 1 and holder is not None:
            # a fn nested in this body or in a body around it (a sibling `inner0`, itself)
            nested = f"{holder}::{path[0]}"
            if self._is_function(nested):
                return nested
            current = self.lookups.symbol(holder)
            outer = self.lookups.symbol(current.parent) if current is not None else None
            is_body = outer is not None and outer.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)
            holder = outer.qualified_name if is_body and outer is not None else None
        self_type = self.owner_type(scope)
        found = self.resolve(path, scope, self_type)
        if found is not None:
            return found if self._is_function(found) else None
        if len(path) >= 2:
            owner = self.resolve(path[:-1], scope, self_type)
            if owner is not None:
                symbol: Symbol | None = self.lookups.symbol(owner)
                if symbol is not None and symbol.kind == SymbolKind.CLASS:
                    return self.method(owner, path[-1])
            builtin = self._builtin_owner(path[:-1], scope, self_type)
            if builtin is not None and std_inherent(builtin.rpartition("::")[2], path[-1]):
                return None  # `f32::from_bits(u)`: std's own, before the crate's impls
            if builtin is not None:  # `u64::error_scale()`, `Self::f()` in `impl T for f64`
                return self.method(builtin, path[-1])
        return None

    def _builtin_owner(self, written: Path, scope: str, self_type: Path | None) -> str | None:
        """The crate's name for a built-in type a path names (`u64`, `Self` in an impl on
        `f64`: `crate::f64`, where `parser` files those impls), or None."""
        own = self.scope_of(scope)
        path = own.absolute(written, self_type)
        if len(written) == 1 and written[0] not in own.items and _BUILTIN.fullmatch(written[0]):
            path = (*own.root, written[0])
        if path[:-1] != own.root or not _BUILTIN.fullmatch(path[-1]):
            return None
        return joined(path)


def _unglobal(path: Path) -> Path:
    """A global path (`::core::fmt`, `syntax.GLOBAL`) as the other crate's path."""
    if path[:1] and path[0].startswith(GLOBAL):
        return (path[0][len(GLOBAL) :], *path[1:])
    return path
