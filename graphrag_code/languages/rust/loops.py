"""`for edge in self.edge_references() { edge.source() }`: a loop's variable has the type of
the items its iterable gives.

An iterable that is a name or a place holding elements (`&self.nodes`, `graph.g.edges`,
`self.nodes.iter()` with `nodes: Vec<Node>`) gives its elements (`slices.elements`): the variable
is bound ("enter": read as of the loop's own line) to that place's element (`places`); where no
element type is known, to the items of the place's own type (`for e in edges` after `let edges =
g.edge_references();`). Any other call (`self.edge_references()`, `self.iter()`) gives the
items of its result's type: the `type Item = …` an impl of the crate declares for that type
(`Iterator`'s), read by the resolver from a "call" binding of the call's site marked `ITEM`.
Other patterns (`(i, x)`, `&d`: their names shadowed) and iterables are not read.
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import Binding
from ...parsing.treesitter import first_line, node_text
from .closure_calls import chain_depth, named_argument
from .places import PLACE, place_path
from .slices import INDEX

__all__ = ["ITEM", "adaptor_bindings", "loop_bindings", "loop_parts"]

ITEM = "Item"
_ITERATING = frozenset({"iter", "iter_mut", "into_iter", "drain"})
_ADAPTORS = frozenset(
    {"map", "filter", "for_each", "any", "all", "find", "filter_map", "flat_map", "find_map",
     "take_while", "skip_while", "map_while", "position", "inspect", "max_by_key", "min_by_key",
     "try_for_each"}
)  # fmt: skip
"""Iterator methods whose closure's one parameter is an item (or a reference to one)."""


def loop_bindings(node: ts.Node, scope: str, site: str) -> list[Binding]:
    """The bindings of a `for` loop's variables, from the loop's body on: the one variable's
    type, or each name of another pattern (`(i, x)`) shadowed, its type not read; `site` is
    how the parser names a call binding's value (`parser.SITE`)."""
    parts = loop_parts(node)
    if parts is None:
        return []
    pattern, value, line = parts
    if pattern.type == "mut_pattern" and pattern.named_children:
        pattern = pattern.named_children[-1]
    if pattern.type != "identifier":
        names = [n for n in pattern.named_children if n.type == "identifier"]
        return [Binding(scope, (node_text(n),), (), "opaque", line) for n in names]
    found = _typed(node_text(pattern), value, scope, site, line)
    return [found or Binding(scope, (node_text(pattern),), (), "opaque", line)]


def loop_parts(node: ts.Node) -> tuple[ts.Node, ts.Node, int] | None:
    """A `for` loop's pattern, its iterable and the line its body starts (where what the
    pattern binds takes effect); None for a loop missing one."""
    pattern = node.child_by_field_name("pattern")
    value = node.child_by_field_name("value")
    body = node.child_by_field_name("body")
    if pattern is None or value is None or body is None:
        return None
    return pattern, value, first_line(body)


def adaptor_bindings(parameters: ts.Node, scope: str, site: str) -> list[Binding]:
    """`self.edge_references().map(|e| e.source())`: the one untyped parameter of a closure
    passed to an iterator adaptor is an item of the adaptor's receiver, as a loop's variable
    is of its iterable."""
    argument = named_argument(parameters, _ADAPTORS)
    if argument is None:
        return []
    name, receiver = argument
    found = _typed(node_text(name), receiver, scope, site, first_line(parameters))
    if found is None or found.kind != "call":
        return [found] if found is not None else []
    outer = chain_depth(receiver)  # which of the chain's sites at its byte
    return [Binding(scope, found.target, (*found.value, str(outer)), "call", found.line)]


def _typed(name: str, value: ts.Node, scope: str, site: str, line: int) -> Binding | None:
    while value.type == "reference_expression" and value.named_children:
        value = value.named_children[-1]
    held = value
    if value.type == "call_expression":  # `self.nodes.iter()`: the place iterated
        function = value.child_by_field_name("function")
        field = function.child_by_field_name("field") if function is not None else None
        if function is not None and function.type == "field_expression" and (
            field is not None and node_text(field) in _ITERATING
        ):  # fmt: skip
            held = function.child_by_field_name("value") or value
    place = (PLACE, node_text(held)) if held.type == "identifier" else place_path(held)
    if place is not None:  # its elements, or the items of its type (`resolver`)
        return Binding(scope, (name,), (*place, INDEX), "enter", line)
    if value.type == "call_expression":
        return Binding(scope, (name,), (site, str(value.start_byte), ITEM), "call", line)
    return None
