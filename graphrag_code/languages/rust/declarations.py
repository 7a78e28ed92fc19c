"""What a declaration's head says: the traits that bound its type parameters, and the type
an `impl` block is on (a path made absolute from the module's names, or a built-in type)."""

from __future__ import annotations

import tree_sitter as ts

from ...model import Dotted
from ...parsing.treesitter import node_text
from .paths import Path, Scope
from .syntax import path_of

__all__ = ["builtin_type", "generic_bounds", "impl_type"]


def generic_bounds(node: ts.Node) -> dict[str, list[Dotted]]:
    """A declaration's type parameters and the traits each is bound by, in order
    (`<E: Engine + Clone>`, `where E: Engine`): a value of type E has those traits' methods."""
    found: dict[str, list[Dotted]] = {}
    params = node.child_by_field_name("type_parameters")
    pairs = [
        (p.child_by_field_name("name"), p.child_by_field_name("bounds"))
        for p in (params.named_children if params is not None else ())
        if p.type == "type_parameter"
    ]
    where = next((c for c in node.children if c.type == "where_clause"), None)
    pairs += [
        (p.child_by_field_name("left"), p.child_by_field_name("bounds"))
        for p in (where.named_children if where is not None else ())
        if p.type == "where_predicate"
    ]
    for name, bounds in pairs:
        if name is None or bounds is None or name.type != "type_identifier":
            continue
        for bound in bounds.named_children:
            trait = path_of(bound)
            known = found.setdefault(node_text(name), [])
            if trait is not None and trait not in known:
                known.append(trait)
    return {name: bounds for name, bounds in found.items() if bounds}


def builtin_type(node: ts.Node | None) -> str | None:
    """The name an impl on a built-in type is filed under, at its crate's root: `u8`, `str`,
    `[u8]`, `&str` (a reference apart from its type: each has impls of its own; an array of
    any length as its slice); None for tuples and the like."""
    refs = ""
    while node is not None and node.type in ("reference_type", "pointer_type"):
        node, refs = node.child_by_field_name("type"), refs + "&"
    if node is None:
        return None
    if node.type == "primitive_type":
        return refs + node_text(node)
    if node.type == "array_type":
        element = node.child_by_field_name("element")
        return f"{refs}[{''.join(node_text(element).split())}]" if element is not None else None
    return None


def impl_type(written: Dotted, scope: Scope) -> Path:
    """The absolute path of an impl block's type (see `parser`'s docstring)."""
    absolute = scope.absolute(written)
    if absolute != written or len(written) > 1:
        return absolute
    local = [glob for glob in scope.globs if glob[:1] == scope.root[:1]]
    if len(local) == 1:
        return (*local[0], *written)
    return (*scope.module, *written)
