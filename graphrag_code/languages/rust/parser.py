"""Rust source -> `ParsedFile`, with tree-sitter-rust.

Items: functions, structs, unions, enums, traits (`declared_as` "struct", "enum", "trait",
"union", "type alias"), their methods (a trait's default and required methods, `declared_as`
"required" for one without a body), `impl` blocks' methods and associated functions, inline
modules (`declared_as` "module", a class-like node so their items have a parent), `macro_rules!`
definitions (functions, `declared_as` "macro"), and functions nested in functions. Names follow
`modules`; a symbol's `start_line` is its name's line; the doc comment is the `///` lines or
`/** */` block above it; `decorators` are its outer attributes as written inside `#[…]`.

An `impl` block's type is made absolute from the module's `use` items and declarations
(`paths.Scope`): `impl Order` with `use crate::model::Order` gives `crate::model::Order::…`.
A type the module neither declares nor imports by name is taken from the module's one glob
of an in-crate path (`use super::*`, common in files that only hold impls), else from the
module itself. `impl Trait for Type` is a CLASS symbol of its own (`declared_as` "impl",
qualified `Type::Trait`, its parent the type, `implements` the trait, its line the trait's
name's), which parents the impl's methods and starts the linker's INHERITS edge.

A parameter typed by a generic parameter (`e: &E` with `E: Engine` on the function or its
impl, or in a `where` clause) is bound to the first trait that bounds it.

What the linker reads besides: `use` items (one `ImportStatement` per imported name, its
`module` the absolute path before the name, `name` the last segment, `*` for a glob, `self`
folded into its path; `exported` for `pub use`; `extern crate x` as name x), call sites
(`CallSite.value` the `syntax.expression` of the call; its line the called name's),
macro invocations (callee `name!`, no value: not linked in this step), bindings (parameters,
`let` with a type, `let x = T { … }` as "annotation" (a `let`'s line is the one after it, where
it takes effect: `let rhs = rhs.f();` uses the earlier `rhs`); `let x = call` as "call" with value
("<site>", byte of the call); `let x = y` as "alias"; struct fields as bindings of their
struct, `const` and `static` items as bindings of their module), and type uses in
signatures, fields and `let` types.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import tree_sitter as ts
import tree_sitter_rust

from ...model import (
    Attribute,
    Binding,
    CallSite,
    Dotted,
    ImportStatement,
    Name,
    ParsedFile,
    Symbol,
    SymbolKind,
    TypeUse,
)
from ...parsing.records import clipped_signature, line_count
from ...parsing.treesitter import first_line, last_line, node_text, remembered_texts, syntax_issues
from .cfg import cfg_spans
from .cfg_if import parse_expanded
from .declarations import builtin_type, generic_bounds, impl_type
from .defaults import field_default
from .dispatch_macro import MATCH_HEAD, MATCH_TAIL, as_match
from .entries import closure_entries, entries, loop_entries
from .loops import adaptor_bindings, loop_bindings
from .macro_fns import declared_functions, function_macros
from .macro_items import macro_item_names
from .modules import crate_of
from .option_closures import option_bindings
from .paths import Path, Scope, crate_root, joined
from .places import place_path
from .pointers import pointer_name
from .slices import SLICE, elements, slice_let
from .syntax import (
    attributes,
    callee,
    doc_comment,
    expression,
    name_node,
    own_wrappers,
    path_of,
    type_path,
)
from .tuples import result_places, tuple_places
from .use_trees import prebind, use_tree

__all__ = ["CONST", "RUST_SUFFIXES", "SITE", "RustParser"]

RUST_SUFFIXES = (".rs",)
CONST = "<const>"  # a `const` or `static` binding's type where it names none (`u8`)
SITE = "<site>"  # a "call" binding's value: (SITE, start byte of the call it holds)
_LANGUAGE = ts.Language(tree_sitter_rust.language())
_TYPES = {
    "struct_item": "struct",
    "enum_item": "enum",
    "union_item": "union",
    "trait_item": "trait",
    "type_item": "type alias",
}
_MACRO_PARSER = ts.Parser(_LANGUAGE)
_MACRO_HEAD = "fn m(){m("  # a macro's arguments, read as a call's
_MACRO_TAIL = ");}"
_TYPE_NODES = frozenset({"type_identifier", "scoped_type_identifier"})
_WRAPPED = frozenset({"try_expression", "await_expression", "parenthesized_expression"})


class RustParser:
    """Parses one Rust file. Cheap to construct; not thread-safe."""

    def __init__(self) -> None:
        self._parser = ts.Parser(_LANGUAGE)

    def skip_reason(self, path: str, source: bytes) -> str | None:
        return None

    def parse(
        self,
        *,
        path: str,
        module: str,
        is_package: bool,
        source: bytes,
        sha256: str,
        symbols_only: bool = False,
    ) -> ParsedFile:
        text = source.decode("utf-8", errors="replace")
        tree, source, arms = parse_expanded(self._parser, source)  # `cfg_if!` arms as items
        with remembered_texts():
            crate, parts = crate_of(path)
            reader = _FileReader(module, crate_root(path))
            reader.module_items(tree.root_node, (crate, *parts), module)
            issues = tuple(syntax_issues(tree.root_node))
            conditions = tuple(sorted((*cfg_spans(tree.root_node, source), *arms)))
        return ParsedFile(
            path=path, module=module, is_package=False, language="rust", sha256=sha256,
            loc=line_count(text), code=text, docstring=_inner_doc(tree.root_node),
            symbols=tuple(reader.symbols), imports=tuple(reader.imports),
            calls=tuple(reader.calls), bindings=tuple(reader.bindings),
            type_uses=tuple(reader.type_uses), module_names=frozenset(reader.top_level),
            issues=issues, conditions=conditions,
        )  # fmt: skip


def _inner_doc(root: ts.Node) -> str | None:
    lines = []
    for child in root.children:
        text = node_text(child)
        if child.type != "line_comment" or not text.startswith("//!"):
            break
        lines.append(text[3:].strip())
    return "\n".join(lines).strip() or None


def _name(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("name")


@dataclass
class _FileReader:
    module: str  # the file's module name (its path)
    root: Path
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[ImportStatement] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)
    type_uses: list[TypeUse] = field(default_factory=list)
    top_level: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    # while a macro's arguments are read from a tree of their own: where that tree's first
    # line and byte sit in the file (its trees are kept until the parse ends: `node_text`
    # remembers texts by node address)
    rows: int = 0
    bytes: int = 0
    depth: int = 0  # how many macros' arguments deep
    # the type parameters of the function whose body is read, and their bounds
    generics: Mapping[str, Sequence[Dotted]] = field(default_factory=dict)
    macro_trees: list[ts.Tree] = field(default_factory=list)

    # -- modules -------------------------------------------------------------------------------
    def module_items(self, body: ts.Node, path: Path, parent: str) -> None:
        """The items of one module (the file, or an inline `mod m { … }`); `parent` is the
        node that holds them (the file's module name, or the inline module's name)."""
        scope = Scope(path, self.root)
        items = list(body.named_children)
        for item in items:
            name = _name(item)
            if item.type in (*_TYPES, "function_item", "mod_item", "macro_definition",
                             "const_item", "static_item") and name is not None:  # fmt: skip
                scope.items.add(node_text(name))
        for item in items:  # `use` items bind in any order: `use map::f;` before `use super::map;`
            if item.type == "use_declaration":
                prebind(item, scope)
        for item in items:
            if item.type == "use_declaration":
                self._use(item, scope, parent)
            elif item.type == "extern_crate_declaration":
                self._extern_crate(item, scope, parent)
        macros = function_macros(items)  # `empty_visit!(visit_string, …)`: `macro_fns`
        for item in items:
            invocation = item.named_children[0] if (
                macros and item.type == "expression_statement" and item.named_children
            ) else None  # fmt: skip
            if invocation is not None and invocation.type == "macro_invocation":
                for made in declared_functions(invocation, macros):
                    scope.items.add(node_text(made))
                    self._add(invocation, f"{joined(scope.module)}::{node_text(made)}",
                              node_text(made), SymbolKind.FUNCTION, parent, made)  # fmt: skip
            self._item(item, scope, parent, top=parent == self.module)

    def _item(self, item: ts.Node, scope: Scope, parent: str, *, top: bool) -> None:
        kind = item.type
        name = _name(item)
        qualifier = joined(scope.module)
        if kind in _TYPES and name is not None:
            qualified = f"{qualifier}::{node_text(name)}"
            self._add(item, qualified, node_text(name), SymbolKind.CLASS, parent, name,
                      declared_as=_TYPES[kind])  # fmt: skip
            if top:
                self.top_level.append(node_text(name))
            if kind == "trait_item":
                self._methods(item.child_by_field_name("body"), qualified, qualified, scope,
                              (*scope.module, node_text(name)))  # fmt: skip
            elif kind in ("struct_item", "union_item"):
                self._fields(item.child_by_field_name("body"), qualified, scope)
            elif kind == "enum_item":
                self._payloads(item.child_by_field_name("body"), qualified, scope)
            elif kind == "type_item" and (aliased := type_path(item.child_by_field_name("type"))):
                # `type HM = HashMap<u8, u8>;`: bound as the alias's `=` (`resolver._aliased`)
                self.bindings.append(Binding(qualified, ("=",), scope.absolute(aliased),
                                             "annotation", first_line(name)))  # fmt: skip
                self.bindings += entries(qualified, "", item.child_by_field_name("type"), scope,
                                         None, first_line(name))  # fmt: skip
        elif kind == "function_item" and name is not None:
            if top:
                self.top_level.append(node_text(name))
            self._function(item, f"{qualifier}::{node_text(name)}", parent, SymbolKind.FUNCTION,
                           scope, None)  # fmt: skip
        elif kind == "macro_definition" and name is not None:
            self._add(item, f"{qualifier}::{node_text(name)}", node_text(name),
                      SymbolKind.FUNCTION, parent, name, declared_as="macro")  # fmt: skip
        elif kind == "mod_item" and name is not None:
            body = item.child_by_field_name("body")
            if body is None:
                return  # `mod x;`: the file x.rs or x/mod.rs is named by its path
            qualified = f"{qualifier}::{node_text(name)}"
            self._add(item, qualified, node_text(name), SymbolKind.CLASS, parent, name,
                      declared_as="module")  # fmt: skip
            self.module_items(body, (*scope.module, node_text(name)), qualified)
        elif kind == "impl_item":
            self._impl(item, scope, parent)
        elif kind == "macro_invocation":
            for made, line in macro_item_names(item):  # `trait_template! { pub trait X … }`
                self.bindings.append(Binding(parent, (made,), (), "opaque", line))
        elif kind in ("const_item", "static_item"):
            if name is not None:
                declared = item.child_by_field_name("type")
                self._type_uses(declared, parent)
                self.bindings.append(
                    Binding(parent, (node_text(name),), scope.absolute(type_path(declared) or
                            (CONST,)), "annotation", first_line(name))
                )  # fmt: skip
            value = item.child_by_field_name("value")
            if value is not None:
                self._code(value, parent, scope, None)

    def _use(self, item: ts.Node, scope: Scope, parent: str, *, binds: bool = True) -> None:
        """A `use` item of a module (`binds`: its names join the module's scope), or of a
        function's body (its scope the function: the resolver applies it there only)."""
        exported = any(c.type == "visibility_modifier" for c in item.children)
        argument = item.child_by_field_name("argument")
        line = first_line(item)
        for path, alias in use_tree(argument, ()):
            absolute = scope.absolute(path)
            if absolute[-1:] == ("self",):
                absolute = absolute[:-1]
                alias = alias or (absolute[-1] if absolute else None)
            if not absolute:
                continue
            name = absolute[-1]
            if not binds:
                pass
            elif name == "*":
                scope.globs.append(absolute[:-1])
            else:
                scope.uses[alias or name] = absolute
            self.imports.append(
                ImportStatement(parent, joined(absolute[:-1]), 0, name,
                                alias if alias != name else None, line, exported=exported)
            )  # fmt: skip

    def _extern_crate(self, item: ts.Node, scope: Scope, parent: str) -> None:
        name = _name(item)
        if name is None:
            return
        alias = item.child_by_field_name("alias")
        crate = node_text(name)
        scope.uses[node_text(alias) if alias is not None else crate] = (crate,)
        self.imports.append(
            ImportStatement(parent, "", 0, crate, node_text(alias) if alias else None,
                            first_line(item))
        )  # fmt: skip

    # -- declarations --------------------------------------------------------------------------
    def _impl(self, item: ts.Node, scope: Scope, parent: str) -> None:
        declared = item.child_by_field_name("type")
        pointer = pointer_name(declared)  # `impl<T> Pointer for *const T`: `pointers`
        written = None if pointer else type_path(declared, own_wrappers(scope.items, scope.uses))
        self._type_uses(declared, parent)
        if written is not None:
            owner = impl_type(written, scope)
        elif (builtin := pointer or builtin_type(declared)) is not None:
            owner = (*scope.root, builtin)  # one name per crate: `self` reaches every file's
        else:
            return
        owner_name = joined(owner)
        trait_node = item.child_by_field_name("trait")
        trait = path_of(trait_node)
        holder = owner_name
        if trait is not None:
            self._type_uses(trait_node, parent)
            # the impl itself: a node the trait's methods hang under and INHERITS starts from
            anchor = trait_node if trait_node is not None else item
            holder = f"{owner_name}::{trait[-1]}"
            self._add(item, holder, trait[-1], SymbolKind.CLASS, owner_name, anchor,
                      declared_as="impl", implements=(scope.absolute(trait, owner),),
                      bases=(owner,))  # fmt: skip
        self._methods(item.child_by_field_name("body"), holder, owner_name, scope, owner,
                      generic_bounds(item))  # fmt: skip

    def _methods(
        self, body: ts.Node | None, holder: str, owner: str, scope: Scope, self_type: Path,
        generics: Mapping[str, Sequence[Dotted]] | None = None,
    ) -> None:  # fmt: skip
        """The functions of an impl or trait body: methods of `owner` (the type, or the
        trait), qualified under `holder` (the type, or `Type::Trait` for a trait impl)."""
        if body is None:
            return
        for member in body.named_children:
            name = _name(member)
            if member.type in ("function_item", "function_signature_item") and name:
                self._function(member, f"{holder}::{node_text(name)}", holder,
                               SymbolKind.METHOD, scope, self_type, generics)  # fmt: skip
            elif member.type == "const_item":
                value = member.child_by_field_name("value")
                if value is not None:
                    self._code(value, holder, scope, self_type)
            elif member.type in ("associated_type", "type_item") and name is not None:
                self._associated_type(member, name, owner, scope, self_type)

    def _associated_type(
        self, member: ts.Node, name: ts.Node, owner: str, scope: Scope, self_type: Path
    ) -> None:
        """`type Config: Config;` in a trait (its first bound), `type Config = GeneralConfig;`
        in an impl: a binding of the trait or type, as a field is, so `Self::Config` and
        `E::Config` (`E: Engine`) have a type."""
        declared = member.child_by_field_name("type")
        if declared is not None:
            self._type_uses(declared, owner)
            dotted = type_path(declared)
        else:
            bounds = member.child_by_field_name("bounds")
            first = bounds.named_children[0] if bounds and bounds.named_children else None
            dotted = path_of(first) if first is not None else None
        if dotted is not None:
            self.bindings.append(
                Binding(owner, (node_text(name),), _own(dotted, scope, self_type), "annotation",
                        first_line(name))
            )  # fmt: skip

    def _function(
        self, node: ts.Node, qualified: str, parent: str, kind: SymbolKind, scope: Scope,
        self_type: Path | None, outer: Mapping[str, Sequence[Dotted]] | None = None,
    ) -> None:  # fmt: skip
        name = _name(node)
        assert name is not None
        generics = {**(outer or {}), **generic_bounds(node)}
        for parameter, bounds in generics.items():
            # `E::standard()`, `E::Config` with `E: Engine`: the type parameter as its bounds
            self._bounded(qualified, parameter, bounds, scope, self_type, first_line(node))
        params = node.child_by_field_name("parameters")
        names: list[str] = []
        for param in params.named_children if params is not None else ():
            if param.type == "self_parameter":
                names.append("self")
                continue
            if param.type != "parameter":
                continue
            pattern = param.child_by_field_name("pattern")
            declared = param.child_by_field_name("type")
            self._type_uses(declared, qualified)
            names.append(node_text(pattern) if pattern is not None else "_")
            dotted = type_path(declared, own_wrappers(scope.items, scope.uses))
            if pattern is not None and pattern.type == "identifier":
                self._pointer(qualified, node_text(pattern), declared, first_line(pattern))
            if dotted is not None and len(dotted) == 1 and dotted[0] in generics:
                # `e: &E` where `E: Engine + Clone`: each bound
                if pattern is not None and pattern.type == "identifier":
                    self._bounded(qualified, node_text(pattern), generics[dotted[0]], scope,
                                  self_type, first_line(pattern))  # fmt: skip
                continue
            if pattern is not None and pattern.type == "identifier" and dotted is not None:
                self.bindings.append(
                    Binding(qualified, (node_text(pattern),), _own(dotted, scope, self_type),
                            "annotation", first_line(pattern))
                )  # fmt: skip
            if pattern is not None and pattern.type == "identifier":
                self.bindings += elements(qualified, node_text(pattern), declared, scope,
                                          self_type, first_line(pattern))  # fmt: skip
                self.bindings += entries(qualified, node_text(pattern), declared, scope,
                                         self_type, first_line(pattern))  # fmt: skip
                self.bindings += tuple_places(qualified, node_text(pattern), declared, scope,
                                              self_type, first_line(pattern))  # fmt: skip
        result = node.child_by_field_name("return_type")
        self._type_uses(result, qualified)
        returns = type_path(result, own_wrappers(scope.items, scope.uses))
        self.bindings += result_places(qualified, result, scope, self_type, first_line(name))
        body = node.child_by_field_name("body")
        is_async = any(
            c.type == "function_modifiers" and "async" in node_text(c).split()
            for c in node.children
        )
        self._add(node, qualified, node_text(name), kind, parent, name,
                  returns=_own(returns, scope, self_type) if returns else None,
                  parameters=tuple(names), is_async=is_async,
                  declared_as="required" if body is None and kind == SymbolKind.METHOD
                  else None)  # fmt: skip
        if body is not None:
            outer_generics, self.generics = self.generics, generics
            try:
                self._code(body, qualified, scope, self_type)
            finally:
                self.generics = outer_generics

    def _closure_parameters(
        self, node: ts.Node, scope_name: str, scope: Scope, self_type: Path | None
    ) -> None:
        """`move |i: I| …`: a closure's typed parameters, as bindings of the function around
        it from the closure's line (closures are no scopes of their own here)."""
        for param in node.named_children:
            pattern = param.child_by_field_name("pattern") if param.type == "parameter" else None
            declared = param.child_by_field_name("type") if pattern is not None else None
            dotted = type_path(declared)
            if pattern is None or pattern.type != "identifier" or dotted is None:
                continue
            name, line = node_text(pattern), first_line(pattern) + self.rows
            if len(dotted) == 1 and dotted[0] in self.generics:
                self._bounded(scope_name, name, self.generics[dotted[0]], scope, self_type, line)
            else:
                self.bindings.append(
                    Binding(scope_name, (name,), _own(dotted, scope, self_type), "annotation",
                            line)
                )  # fmt: skip

    def _pointer(self, holder: str, name: str, declared: ts.Node | None, line: int) -> None:
        """A name of raw pointer type (`end: *const u8`) is also "some raw pointer"
        (`pointers`), made before its pointee's binding: a method call tries the pointee's
        type, then this (`end.distance()`: the crate's impl on raw pointers), and a place or
        a deref has the pointee's type, as before (`(*shared).ref_cnt`, `(*shared).f()`)."""
        pointer = pointer_name(declared)
        if pointer is not None:
            self.bindings.append(Binding(holder, (name,), (pointer,), "annotation", line))

    def _bounded(
        self, holder: str, name: str, bounds: Sequence[Dotted], scope: Scope,
        self_type: Path | None, line: int,
    ) -> None:  # fmt: skip
        """A value (or type parameter) of a generic type: one binding per bound, on one line;
        the resolver tries them first to last (it reads a line's bindings last-made first)."""
        for bound in reversed(bounds):
            self.bindings.append(
                Binding(holder, (name,), _own(bound, scope, self_type), "annotation", line)
            )

    def _fields(self, body: ts.Node | None, struct: str, scope: Scope) -> None:
        if body is None:
            return
        for member in body.named_children:
            declared = member.child_by_field_name("type")
            self._type_uses(declared, struct)
            name = _name(member)
            dotted = type_path(declared, own_wrappers(scope.items, scope.uses))
            if name is not None and dotted is not None:
                self.bindings.append(
                    Binding(struct, (node_text(name),), scope.absolute(dotted), "annotation",
                            first_line(name))
                )  # fmt: skip
            if name is not None:
                self.bindings.extend(
                    elements(struct, node_text(name), declared, scope, None, first_line(name))
                )
                self.bindings += entries(struct, node_text(name), declared, scope, None,
                                         first_line(name))  # fmt: skip

    def _payloads(self, body: ts.Node | None, enum: str, scope: Scope) -> None:
        """The type of each variant that holds one value (`Vacant(VacantEntry<K, V>)`), bound
        as the enum's `Vacant(0)`: a pattern `Entry::Vacant(e)` gives `e` that type."""
        for variant in body.named_children if body is not None else ():
            name = _name(variant)
            fields = variant.child_by_field_name("body")
            if name is None or fields is None or fields.type != "ordered_field_declaration_list":
                continue
            types = fields.children_by_field_name("type")
            dotted = type_path(types[0]) if len(types) == 1 else None
            if dotted is not None:
                self.bindings.append(
                    Binding(enum, (f"{node_text(name)}(0)",), scope.absolute(dotted),
                            "annotation", first_line(name))
                )  # fmt: skip

    def _add(
        self, node: ts.Node, qualified: str, name: str, kind: SymbolKind, parent: str,
        name_node_: ts.Node, **extra: object,
    ) -> None:  # fmt: skip
        self.seen[qualified] += 1
        body = node.child_by_field_name("body")
        header = node_text(node)
        if body is not None:
            header = header[: body.start_byte - node.start_byte]
        self.symbols.append(
            Symbol(
                qualified, name, kind, parent, first_line(name_node_), last_line(node),
                clipped_signature(" ".join(header.split())), doc_comment(node),
                attributes(node), node_text(node), ordinal=self.seen[qualified],
                **extra,  # type: ignore[arg-type]
            )
        )  # fmt: skip

    # -- code ----------------------------------------------------------------------------------
    def _code(self, root: ts.Node, scope_name: str, scope: Scope, self_type: Path | None) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind == "call_expression":
                called = name_node(node)
                self.calls.append(
                    CallSite(scope_name, _callee_dotted(node), first_line(called) + self.rows,
                             at=node.start_byte + self.bytes,
                             value=field_default(node, expression(node)))
                )  # fmt: skip
            elif kind == "macro_invocation":
                macro = node.child_by_field_name("macro")
                if macro is not None:
                    path = path_of(macro) or (node_text(macro),)
                    self.calls.append(
                        CallSite(scope_name, (*path[:-1], path[-1] + "!"),
                                 first_line(macro) + self.rows, at=node.start_byte + self.bytes)
                    )  # fmt: skip
                self._macro_arguments(node, scope_name, scope, self_type)
                continue
            elif kind == "let_declaration" and not self.depth:
                self._let(node, scope_name, scope, self_type)
            elif kind == "let_condition" and not self.depth:  # `if let` / `while let`
                self._unwrapping(node.child_by_field_name("pattern"),
                                 node.child_by_field_name("value"), scope_name)  # fmt: skip
            elif kind == "for_expression" and not self.depth:  # `for e in g.edges()`: `loops`
                self.bindings += loop_bindings(node, scope_name, SITE)
                self.bindings += loop_entries(node, scope_name)  # `for (k, v) in &m`
            elif kind == "match_expression" and not self.depth:
                value = node.child_by_field_name("value")
                body = node.child_by_field_name("body")
                for arm in body.named_children if body is not None else ():
                    pattern = arm.child_by_field_name("pattern")
                    inner = (
                        pattern.named_children[0] if pattern and pattern.named_children else None
                    )
                    self._unwrapping(inner, value, scope_name)
            elif kind == "function_item":
                name = _name(node)
                if name is not None:
                    self._function(node, f"{scope_name}::{node_text(name)}", scope_name,
                                   SymbolKind.FUNCTION, scope, None)  # fmt: skip
                continue
            elif kind == "use_declaration" and not self.depth:
                self._use(node, scope, scope_name, binds=False)
                continue
            elif kind == "type_item" and not self.depth:
                name = _name(node)
                aliased = type_path(node.child_by_field_name("type"))
                if name is not None and aliased is not None:  # `type HS = HashSet<i32>;`
                    self.bindings.append(Binding(scope_name, ("type", node_text(name)),
                                                 _own(aliased, scope, self_type), "annotation",
                                                 first_line(node)))  # fmt: skip
                continue
            elif kind in ("impl_item", "struct_item", "enum_item", "trait_item", "mod_item"):
                continue  # items inside a function body: not followed in this step
            elif kind == "closure_parameters":
                if not self.depth:
                    self._closure_parameters(node, scope_name, scope, self_type)
                    self.bindings += adaptor_bindings(node, scope_name, SITE)  # `.map(|e| …)`
                    self.bindings += closure_entries(node, scope_name)  # `.map(|(k, v)| …)`
                    self.bindings += option_bindings(node, scope_name, SITE)  # `.and_then(|r| …)`
                continue
            stack.extend(reversed(node.named_children))

    def _macro_arguments(
        self, node: ts.Node, scope_name: str, scope: Scope, self_type: Path | None
    ) -> None:
        """The calls in a macro's arguments (`assert_eq!(f(x), 1)`, `write!(f, "{}", x.g())`):
        its token tree read as a call's arguments, where it parses as such."""
        tokens = next((c for c in node.named_children if c.type == "token_tree"), None)
        if tokens is None:
            return
        text = node_text(tokens)
        if len(text) < 3 or ("(" not in text[1:] and "." not in text):
            return
        arms = as_match(text[1:-1])  # `dispatch!(peek(any); b'[' => f(s), …)`: `dispatch_macro`
        head, tail = (MATCH_HEAD, MATCH_TAIL) if arms is not None else (_MACRO_HEAD, _MACRO_TAIL)
        inside = arms if arms is not None else text[1:-1]
        tree = _MACRO_PARSER.parse((head + inside + tail).encode("utf-8", errors="replace"))
        self.macro_trees.append(tree)
        wrapper = tree.root_node.named_children[0] if tree.root_node.named_children else None
        block = wrapper.child_by_field_name("body") if wrapper is not None else None
        statement = block.named_children[0] if block and block.named_children else None
        call = statement.named_children[0] if statement and statement.named_children else None
        if arms is not None:
            arguments = call if call is not None and call.type == "match_expression" else None
        else:
            arguments = call.child_by_field_name("arguments") if call is not None else None
        if arguments is None:
            return
        rows, offset = self.rows, self.bytes
        self.rows = rows + tokens.start_point[0]
        self.bytes = offset + tokens.start_byte + 1 - len(head.encode())
        self.depth += 1
        try:
            self._code(arguments, scope_name, scope, self_type)
        finally:
            self.rows, self.bytes = rows, offset
            self.depth -= 1

    def _let(self, node: ts.Node, scope_name: str, scope: Scope, self_type: Path | None) -> None:
        pattern = node.child_by_field_name("pattern")
        declared = node.child_by_field_name("type")
        self._type_uses(declared, scope_name)
        if pattern is not None and pattern.type == "tuple_pattern":
            self._tuple_let(pattern, node.child_by_field_name("value"), scope_name, node)
            return
        if pattern is None or pattern.type not in ("identifier", "mut_pattern"):
            return
        if pattern.type == "mut_pattern":
            inner = pattern.named_children[-1] if pattern.named_children else None
            if inner is None or inner.type != "identifier":
                return
            pattern = inner
        target = (node_text(pattern),)
        line = last_line(node) + 1  # in effect after the statement (`let x = x.f();`)
        if slice_let(declared, node.child_by_field_name("value"), scope.items):
            self.bindings.append(Binding(scope_name, target, (SLICE,), "annotation", line))
            self.bindings.extend(elements(scope_name, target[0], declared, scope, self_type, line))
            return
        self._pointer(scope_name, target[0], declared, line)
        dotted = type_path(declared, own_wrappers(scope.items, scope.uses))
        if dotted is not None:
            self.bindings.append(
                Binding(scope_name, target, _own(dotted, scope, self_type), "annotation", line)
            )
            return
        if pointer_name(declared) is not None:  # `let p: *const u8 = …`: no pointee type
            return
        value = node.child_by_field_name("value")
        while value is not None and value.type in _WRAPPED and value.named_children:
            value = value.named_children[0]
        while value is not None and value.type == "reference_expression" and value.named_children:
            value = value.named_children[-1]
        if value is None:
            return
        made = (
            path_of(value.child_by_field_name("name"))
            if value.type == "struct_expression"
            else None
        )
        if value.type == "call_expression":
            self.bindings.append(
                Binding(scope_name, target, (SITE, str(value.start_byte)), "call", line)
            )
        elif made is not None:
            self.bindings.append(
                Binding(scope_name, target, _own(made, scope, self_type), "annotation", line)
            )
        elif value.type in ("identifier", "self"):
            self.bindings.append(Binding(scope_name, target, (node_text(value),), "alias", line))
        elif (place := place_path(value)) is not None:  # `let x = self.free_node;`
            self.bindings.append(Binding(scope_name, target, place, "alias", line))
        else:
            # `let e = match …` / `if …`: a type not read here, but the earlier `e` (another
            # block's, a parameter) is shadowed from this line on
            self.bindings.append(Binding(scope_name, target, (), "opaque", line))

    def _tuple_let(
        self, pattern: ts.Node, value: ts.Node | None, scope: str, statement: ts.Node
    ) -> None:
        """`let (a, b) = (x, y);`, `let (small, large) = if c { (self, o) } else { (o, self) };`
        (the first branch's tuple: the other holds the same types): each name is an alias of
        the value in its place; a name bound otherwise is shadowed."""
        if value is not None and value.type == "if_expression":
            block = value.child_by_field_name("consequence")
            value = block.named_children[-1] if block and block.named_children else None
        while value is not None and value.type in _WRAPPED and value.named_children:
            value = value.named_children[0]  # `let (a, b) = f()?;`
        called = value.start_byte if value and value.type == "call_expression" else -1
        values = (
            value.named_children if value is not None and value.type == "tuple_expression" else []
        )
        line = last_line(statement) + 1
        for position, part in enumerate(pattern.named_children):
            while part.type == "mut_pattern" and part.named_children:
                part = part.named_children[-1]
            if part.type != "identifier":
                continue
            source = values[position] if position < len(values) else None
            if len(values) == len(pattern.named_children) and source is not None and (
                source.type in ("identifier", "self")
            ):  # fmt: skip
                self.bindings.append(
                    Binding(scope, (node_text(part),), (node_text(source),), "alias", line)
                )
            elif called >= 0:  # the call's result, in this place (`tuples`)
                site = (SITE, str(called), str(position))
                self.bindings.append(Binding(scope, (node_text(part),), site, "call", line))
            else:
                self.bindings.append(Binding(scope, (node_text(part),), (), "opaque", line))

    def _unwrapping(self, pattern: ts.Node | None, value: ts.Node | None, scope: str) -> None:
        """`Some(x)` / `Ok(x)` matched against a call or a name (`if let Some(x) = it.f()`,
        `match f() { Ok(x) => … }`): x is bound as a `let x = f()` would be, the declared
        `Option` / `Result` being unwrapped already (`syntax.type_path`)."""
        if pattern is None or value is None or pattern.type != "tuple_struct_pattern":
            return
        wrapper = pattern.child_by_field_name("type")
        inner = [c for c in pattern.named_children if c != wrapper]
        if wrapper is not None and node_text(wrapper) not in ("Some", "Ok") and len(inner) == 1:
            # `Entry::Vacant(e)`, `Occupied(ref mut e)`: e holds the variant's one value
            bound = inner[0]
            while bound.type in ("ref_pattern", "mut_pattern") and bound.named_children:
                bound = bound.named_children[-1]
            variant = path_of(wrapper)
            if bound.type == "identifier" and variant and variant[-1][:1].isupper():
                self.bindings.append(
                    Binding(scope, (node_text(bound),), variant, "variant", first_line(pattern))
                )  # fmt: skip
            return
        if wrapper is None or node_text(wrapper) not in ("Some", "Ok") or len(inner) != 1:
            return
        if inner[0].type != "identifier":
            return
        while value.type in _WRAPPED and value.named_children:
            value = value.named_children[0]
        target, line = (node_text(inner[0]),), last_line(value) + 1
        if value.type == "call_expression":
            self.bindings.append(
                Binding(scope, target, (SITE, str(value.start_byte)), "call", line)
            )
        elif value.type in ("identifier", "self"):
            self.bindings.append(Binding(scope, target, (node_text(value),), "alias", line))

    def _type_uses(self, node: ts.Node | None, scope: str) -> None:
        """Every named type a type mentions, generic arguments included."""
        if node is None:
            return
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in _TYPE_NODES:
                dotted = path_of(current)
                if dotted is not None and dotted != ("Self",):
                    self.type_uses.append(TypeUse(scope, dotted, first_line(current), "annotation"))
                if current.type == "scoped_type_identifier":
                    continue
            stack.extend(current.named_children)


def _own(dotted: Dotted, scope: Scope, self_type: Path | None) -> Dotted:
    """A type as written, made absolute where the module says how (`Self`, `crate::`, a
    `use`d or declared name); else as written (the linker tries globs and externals)."""
    return scope.absolute(dotted, self_type)


def _callee_dotted(node: ts.Node) -> Dotted:
    value = callee(node)
    if isinstance(value, Name):
        return value.dotted
    if isinstance(value, Attribute):
        return ("<expr>", value.name)
    return ("<expr>",)
