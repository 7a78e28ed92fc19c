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

from ...parsing.treesitter import node_text

__all__ = ["SLICE", "is_slice_type", "is_slice_value", "slice_holders"]

SLICE = "[_]"
"""A local's type where it is some slice, array or `Vec`: `<crate root>::[_]`."""

_SLICE_TYPES = frozenset({"array_type"})
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
