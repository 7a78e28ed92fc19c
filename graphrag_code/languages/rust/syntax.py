"""Pieces of Rust syntax the parser reads: types and paths as segments, expressions as
`Expr` records the linker types, doc comments.

Expressions (`expression`): a name is `Name((x,))` (`self` too), a path `Name(segments)`
(`Kind::A`); a call `Call(callee, args)` whose callee is `Name(path)` for `f()` / `a::b::f()`
/ `T::new()` (args: the first argument of a path of two or more segments, else none),
`Attribute(receiver, m)` for `x.m()`; a field `Attribute(value, f)`; `e?` is
`Attribute(e, "?")` (the `Ok` / `Some` value: declared results are unwrapped already, see
`type_path`), `e.await` `Awaited(e)`; a struct literal `T { … }` `InstanceOf(Name(T))`; `&e`,
`&mut e`, `*e`, `(e)` are `e`; anything else `Opaque`.
"""

from __future__ import annotations

from collections.abc import Container, Mapping

import tree_sitter as ts

from ...model import OPAQUE, Attribute, Awaited, Call, Dotted, Expr, InstanceOf, Name, Subscript
from ...parsing.treesitter import node_text

__all__ = [
    "GLOBAL", "TRY", "WRAPPERS", "attributes", "callee", "doc_comment", "expression", "name_node",
    "own_wrappers", "path_of", "type_path",
]  # fmt: skip

TRY = "?"
# generic types whose value a method call reaches through (`Box<T>`, `&Option<T>` after `?`):
# a declared type `Wrapper<T>` is taken as T
WRAPPERS = frozenset(
    {"Box", "Rc", "Arc", "Option", "Result", "RefCell", "Cell", "Mutex", "RwLock", "Pin", "Cow",
     "Weak", "MutexGuard", "Ref", "RefMut"}
)  # fmt: skip
_PASS_THROUGH = frozenset({"parenthesized_expression", "reference_expression"})
GLOBAL = "::"  # the head of a global path (`::core::fmt`): `("::core", "fmt")`


def path_of(node: ts.Node | None) -> Dotted | None:
    """The segments of a path (`a::b::C`, `crate::x`, `super::y`, `Self`), generic
    arguments dropped; None for what is no plain path (`<T as Trait>::f`)."""
    if node is None:
        return None
    kind = node.type
    if kind in ("identifier", "type_identifier", "self", "super", "crate", "metavariable"):
        return (node_text(node),)
    if kind in ("scoped_identifier", "scoped_type_identifier"):
        name = node.child_by_field_name("name")
        head = node.child_by_field_name("path")
        if name is None:
            return None
        if head is None:
            # `::core::fmt`: a global path names another crate, never a local `mod core`
            first = node.children[0] if node.children else None
            text = node_text(name)
            return (f"{GLOBAL}{text}",) if first is not None and first.type == "::" else (text,)
        prefix = path_of(head)
        return None if prefix is None else (*prefix, node_text(name))
    if kind == "generic_type":
        return path_of(node.child_by_field_name("type"))
    if kind == "generic_function":
        return path_of(node.child_by_field_name("function"))
    return None


def own_wrappers(items: Container[str], uses: Mapping[str, Dotted]) -> frozenset[str]:
    """The names of std's wrappers (`RefMut`, `Ref`, `Cell` …) that name a type of the crate
    in a module: declared there (`items`), or brought in from the crate (`uses`). Not
    `Result`, `Option`, `Box`: a crate's own of those is an alias (`type Result<T> = …`)."""
    return frozenset(
        name for name in WRAPPERS - {"Result", "Option", "Box"}
        if name in items
        or (name in uses and uses[name][:1] not in (("std",), ("core",), ("alloc",)))
    )  # fmt: skip


def type_path(node: ts.Node | None, own: Container[str] = ()) -> Dotted | None:
    """The type whose methods a value of a declared type has: references, `Box`, `Option`,
    `Result` and the like unwrapped (`&mut Option<Box<T>>` -> T) but those of `own` (a crate's
    own `RefMut<'a, K, V>`), `dyn Trait` / `impl Trait` as the trait; None for primitives,
    tuples, slices and arrays."""
    while node is not None:
        kind = node.type
        if kind in ("reference_type", "pointer_type"):
            node = node.child_by_field_name("type")
        elif kind in ("dynamic_type", "abstract_type"):
            node = node.child_by_field_name("trait")
        elif kind == "bounded_type":
            node = node.named_children[0] if node.named_children else None
        elif kind == "generic_type":
            base = path_of(node.child_by_field_name("type"))
            arguments = node.child_by_field_name("type_arguments")
            first = next(
                (c for c in arguments.named_children if c.type != "lifetime"), None
            ) if arguments is not None else None  # fmt: skip
            if base is not None and base[-1] in WRAPPERS and first is not None and (
                len(base) > 1 or base[-1] not in own
            ):  # fmt: skip
                node = first
            else:
                return base
        elif kind in ("type_identifier", "scoped_type_identifier"):
            return path_of(node)
        else:
            return None
    return None


def expression(node: ts.Node | None) -> Expr:
    """The `Expr` record of an expression (see the module's docstring)."""
    if node is None:
        return OPAQUE
    while node.type in _PASS_THROUGH or (
        node.type == "unary_expression" and node_text(node)[:1] == "*"
    ):
        inner = node.named_children[-1] if node.named_children else None
        if inner is None:
            return OPAQUE
        node = inner
    kind = node.type
    if kind in ("identifier", "self", "scoped_identifier"):
        path = path_of(node)
        return Name(path) if path else OPAQUE
    if kind == "call_expression":
        called = callee(node)
        if isinstance(called, Name) and len(called.dotted) >= 2:
            # `Trait::m(x)`, `Type::m(x)`: the first argument may be the receiver
            arguments = node.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments and arguments.named_children else None
            if first is not None and first.type not in ("attribute_item", "line_comment"):
                return Call(called, ((0, expression(first)),))
        return Call(called, ())
    if kind == "field_expression":
        field = node.child_by_field_name("field")
        return Attribute(expression(node.child_by_field_name("value")), node_text(field or node))
    if kind == "try_expression":
        return Attribute(expression(node.named_children[0] if node.named_children else None), TRY)
    if kind == "await_expression":
        return Awaited(expression(node.named_children[0] if node.named_children else None))
    if kind == "struct_expression":
        path = path_of(node.child_by_field_name("name"))
        return InstanceOf(Name(path)) if path else OPAQUE
    if kind == "index_expression" and node.named_children:  # `nodes[i]`: an element
        return Subscript(expression(node.named_children[0]), OPAQUE)
    return OPAQUE


def callee(node: ts.Node) -> Expr:
    """A call's callee: `Name(path)` for a path, `Attribute(receiver, m)` for a method."""
    function = node.child_by_field_name("function")
    if function is not None and function.type == "generic_function":
        function = function.child_by_field_name("function")
    if function is None:
        return OPAQUE
    if function.type == "field_expression":
        field = function.child_by_field_name("field")
        return Attribute(
            expression(function.child_by_field_name("value")), node_text(field or function)
        )
    path = path_of(function)
    return Name(path) if path else OPAQUE


def name_node(node: ts.Node) -> ts.Node:
    """The node of a call's called name (its line is the call's line)."""
    function = node.child_by_field_name("function")
    if function is not None and function.type == "generic_function":
        function = function.child_by_field_name("function")
    if function is None:
        return node
    if function.type == "field_expression":
        return function.child_by_field_name("field") or function
    if function.type == "scoped_identifier":
        return function.child_by_field_name("name") or function
    return function


def doc_comment(item: ts.Node) -> str | None:
    """The `///` lines (or `/** */` block) above an item, across its attributes."""
    lines: list[str] = []
    node = item.prev_sibling
    while node is not None and node.type in ("line_comment", "block_comment", "attribute_item"):
        text = node_text(node)
        if node.type == "line_comment":
            if not text.startswith("///") or text.startswith("////"):
                break
            lines.append(text[3:].strip())
        elif node.type == "block_comment":
            if not text.startswith("/**"):
                break
            body = text.removeprefix("/**").removesuffix("*/")
            lines.append("\n".join(line.strip().lstrip("*").strip() for line in body.splitlines()))
        node = node.prev_sibling
    return "\n".join(reversed(lines)).strip() or None


def attributes(item: ts.Node) -> tuple[str, ...]:
    """The outer attributes above an item, as written inside `#[…]` (`test`, `cfg(test)`)."""
    found: list[str] = []
    node = item.prev_sibling
    while node is not None and node.type in ("line_comment", "block_comment", "attribute_item"):
        if node.type == "attribute_item":
            inner = node.named_children[0] if node.named_children else None
            found.append(" ".join(node_text(inner).split()) if inner is not None else "")
        node = node.prev_sibling
    return tuple(reversed(found))
