"""`let x = self.free_node;`, `let mut edix = node.next[0];`: a local bound to a place.

A place is a field or an element of a name (`self.g.nodes[i].next`). The parser binds such a
`let` as an "alias" of the place, written as a path that starts with `PLACE` (fields by name,
elements as `slices.INDEX`), and the resolver types it as the expression it was: the field's
declared type, the element type of a `Vec` or array (`slices.elements`).
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import OPAQUE, Attribute, Dotted, Expr, Name, Subscript
from ...parsing.treesitter import node_text
from .slices import INDEX

__all__ = ["PLACE", "place_expression", "place_path"]

PLACE = "<place>"
_DEEPEST = 8


def place_path(node: ts.Node | None) -> Dotted | None:
    """`(PLACE, "self", "g", "nodes", "[]", "next")` for `self.g.nodes[i].next`, or None for an
    expression that is no place of a name."""
    parts: list[str] = []
    while node is not None and len(parts) <= _DEEPEST:
        if node.type == "field_expression":
            field = node.child_by_field_name("field")
            if field is None:
                return None
            parts.append(node_text(field))
            node = node.child_by_field_name("value")
        elif node.type == "index_expression" and node.named_children:
            parts.append(INDEX)
            node = node.named_children[0]
        elif node.type in ("identifier", "self") and parts:
            return (PLACE, node_text(node), *reversed(parts))
        else:
            return None
    return None


def place_expression(path: Dotted) -> Expr:
    """The expression a `place_path` was made from (the index itself left out)."""
    expr: Expr = Name((path[1],))
    for part in path[2:]:
        expr = Subscript(expr, OPAQUE) if part == INDEX else Attribute(expr, part)
    return expr
