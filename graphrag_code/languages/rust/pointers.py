"""Raw pointers, and the crate's impls on them: `impl<T> Pointer for *const T`.

A raw pointer never derefs to its pointee for a method call (`p.f()` with `p: *const Node` is
no call of `Node::f`), so a parameter, `let` or impl of type `*const X` / `*mut X` is typed as
"some raw pointer" (`*const _`, `*mut _`, at the crate's root, as `slices.SLICE` is): its
methods are those of the crate's impls on raw pointers (memchr's `end.distance(start)` with
`end: *const u8`), after std's own (`add`, `offset`, `read` … come first: inherent methods).
"""

from __future__ import annotations

import tree_sitter as ts

__all__ = ["POINTERS", "STD_POINTER_METHODS", "pointer_name"]

POINTERS = frozenset({"*const _", "*mut _"})
"""The names a raw pointer type is filed and typed under, at the crate's root."""

STD_POINTER_METHODS = frozenset(
    {"add", "sub", "offset", "byte_add", "byte_sub", "byte_offset", "wrapping_add",
     "wrapping_sub", "wrapping_offset", "offset_from", "byte_offset_from", "read", "write",
     "read_unaligned", "write_unaligned", "read_volatile", "write_volatile", "replace", "swap",
     "cast", "cast_mut", "cast_const", "is_null", "as_ref", "as_mut", "addr", "align_offset",
     "is_aligned", "copy_to", "copy_from", "copy_to_nonoverlapping", "copy_from_nonoverlapping",
     "write_bytes", "drop_in_place", "with_addr", "map_addr", "expose_provenance"}
)  # fmt: skip
"""std's inherent methods of raw pointers: these win over a trait method of the same name."""


def pointer_name(node: ts.Node | None) -> str | None:
    """`*const _` / `*mut _` for a declared raw pointer type (`*const u8`, `*mut T`), else
    None (a reference to one stays a reference: `&*const T` is rare and not read)."""
    if node is None or node.type != "pointer_type":
        return None
    mutable = any(child.type == "mutable_specifier" for child in node.children)
    return "*mut _" if mutable else "*const _"
