"""A `use` item's tree read as the (path, alias) of each name it imports, and a module's
`use` names bound before its items are read (so an item above a `use` resolves through it)."""

from __future__ import annotations

import tree_sitter as ts

from ...parsing.treesitter import node_text
from .paths import Path, Scope
from .syntax import path_of

__all__ = ["prebind", "use_tree"]


def prebind(item: ts.Node, scope: Scope) -> None:
    """Bind the names a module's `use` item brings in, ahead of reading any (a name that is
    its own path's head, `use a::b as a`, is left to its turn)."""
    for path, alias in use_tree(item.child_by_field_name("argument"), ()):
        absolute = scope.absolute(path)
        if absolute[-1:] == ("self",):
            absolute = absolute[:-1]
            alias = alias or (absolute[-1] if absolute else None)
        name = alias or (absolute[-1] if absolute else "*")
        if absolute and name != "*" and name != path[0] and name not in scope.uses:
            scope.uses[name] = absolute


def use_tree(node: ts.Node | None, prefix: Path) -> list[tuple[Path, str | None]]:
    """The (path, alias) of each name a `use` tree imports; a glob's path ends in `*`."""
    if node is None:
        return []
    kind = node.type
    if kind in ("identifier", "self", "super", "crate", "scoped_identifier", "metavariable"):
        path = path_of(node)
        return [((*prefix, *path), None)] if path else []
    if kind == "use_as_clause":
        path = path_of(node.child_by_field_name("path"))
        alias = node.child_by_field_name("alias")
        return [((*prefix, *path), node_text(alias) if alias else None)] if path else []
    if kind == "use_wildcard":
        inner = node.named_children[0] if node.named_children else None
        head = path_of(inner) if inner is not None else ()
        return [((*prefix, *(head or ()), "*"), None)] if head is not None else []
    if kind == "scoped_use_list":
        head = path_of(node.child_by_field_name("path")) or ()
        return use_tree(node.child_by_field_name("list"), (*prefix, *head))
    if kind == "use_list":
        found: list[tuple[Path, str | None]] = []
        for child in node.named_children:
            found.extend(use_tree(child, prefix))
        return found
    return []
