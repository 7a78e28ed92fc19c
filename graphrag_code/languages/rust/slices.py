"""Values of slice type, and the crate's impls on slices: `impl<T> SliceRandom for [T]`.

An impl on `[T]` (or `[T; N]`, filed as its slice by `parser._builtin_type`) gives every slice,
array and `Vec` (which derefs to its slice) the impl's methods: `chars.choose(&mut r)` with
`let chars = ['a', 'b'];`. Which element type a local holds is not read, so such a value is
typed as "some slice" (`SLICE`), and a method on it is the one method of that name among the
crate's impls on slices — none where impls on two slice types (`[u8]`, `[T]`) both define it,
and none for a name std's slices have (`len`, `iter`: `conventions.BUILTIN_METHODS`).
"""

from __future__ import annotations

from collections.abc import Iterable

import tree_sitter as ts

from ...model import Binding
from ...parsing.treesitter import node_text
from .paths import Path, Scope
from .syntax import type_path

__all__ = ["INDEX", "SLICE", "elements", "slice_holders", "slice_let"]

SLICE = "[_]"
"""A local's type where it is some slice, array or `Vec`: `<crate root>::[_]`."""

INDEX = "[]"
"""Appended to a field's or local's name, the binding of its elements' type: a field `nodes:
Vec<Node>` is also bound as `nodes[]: Node`, so `self.nodes[i].weight()` has a type."""

_SLICE_TYPES = frozenset({"array_type"})
_INDEXED = frozenset({"Vec", "VecDeque", "std::vec::Vec", "alloc::vec::Vec"})
_VEC = frozenset({"Vec", "std::vec::Vec", "alloc::vec::Vec"})


def is_slice_type(node: ts.Node | None, own_names: Iterable[str] = ()) -> bool:
    """Whether a declared type is a slice, an array or a `Vec` (behind references):
    `&mut [T]`, `[u8; 4]`, `Vec<T>` — unless the crate declares a `Vec` of its own."""
    while node is not None and node.type in ("reference_type", "pointer_type"):
        node = node.child_by_field_name("type")
    if node is None:
        return False
    if node.type in _SLICE_TYPES:
        return True
    if node.type == "generic_type":
        base = node.child_by_field_name("type")
        written = node_text(base) if base is not None else ""
        return written in _VEC and "Vec" not in set(own_names)
    return False


def element_type(node: ts.Node | None) -> ts.Node | None:
    """The type of the elements an index expression gives of a value of a declared type:
    `[EdgeIndex; 2]`, `&mut [T]`, `Vec<Label<G>>`, `VecDeque<T>` (behind references)."""
    while node is not None and node.type in ("reference_type", "pointer_type"):
        node = node.child_by_field_name("type")
    if node is None:
        return None
    if node.type in _SLICE_TYPES:
        return node.child_by_field_name("element")
    if node.type != "generic_type":
        return None
    base = node.child_by_field_name("type")
    arguments = node.child_by_field_name("type_arguments")
    if base is None or arguments is None or node_text(base) not in _INDEXED:
        return None
    return next((c for c in arguments.named_children if c.type != "lifetime"), None)


def is_slice_value(node: ts.Node | None) -> bool:
    """Whether an expression makes an array or a `Vec`: `[a, b]`, `[0; 14]`, `vec![…]`."""
    if node is None:
        return False
    if node.type == "array_expression":
        return True
    if node.type == "macro_invocation":
        macro = node.child_by_field_name("macro")
        return macro is not None and node_text(macro) in ("vec", "std::vec", "alloc::vec")
    return False


def slice_holders(holders: Iterable[str], root: str) -> list[str]:
    """The names the crate files its impls on slices under (`rand::[T]`, `rand::[u8]`)."""
    prefix = f"{root}::["
    return sorted(
        h
        for h in holders
        if h.startswith(prefix) and h.endswith("]") and "::" not in h[len(prefix) :]
    )


def slice_let(declared: ts.Node | None, value: ts.Node | None, own_names: Iterable[str]) -> bool:
    """Whether a `let` binds a slice, an array or a `Vec`: by its type, or by its value where
    it has none written."""
    if declared is not None:
        return is_slice_type(declared, own_names)
    while value is not None and value.type == "reference_expression" and value.named_children:
        value = value.named_children[-1]
    return is_slice_value(value)


def elements(
    holder: str, name: str, declared: ts.Node | None, scope: Scope, self_type: Path | None,
    line: int,
) -> list[Binding]:  # fmt: skip
    """`nodes: Vec<Node>` (a field, parameter or `let`): its elements' type bound as `nodes[]`
    (`INDEX`), the type `nodes[i]` has; nothing for another declared type."""
    element = type_path(element_type(declared))
    if element is None:
        return []
    return [
        Binding(holder, (name + INDEX,), scope.absolute(element, self_type), "annotation", line)
    ]
