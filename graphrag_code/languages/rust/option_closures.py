"""`self.repr.as_ref().and_then(|r| r.span())`: the parameter of a closure an `Option` or
`Result` method takes has the type the receiver holds.

Declared types are read with `Option` / `Result` unwrapped (`syntax.type_path`), so the
receiver's type is the value's: the one untyped parameter of a closure passed to a method only
`Option` and `Result` have (`and_then`, `is_some_and`, `map_or` …; not `map` or `filter`, which
iterators have too: `loops.adaptor_bindings`) is bound to the receiver: a name as an alias of
it, a place as that place, a call as that call's value (`RECEIVER`, read by the resolver).
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import Binding
from ...parsing.treesitter import first_line, node_text
from .places import place_path

__all__ = ["RECEIVER", "option_bindings"]

RECEIVER = "<receiver>"
"""A "call" binding's third part: the value of the call itself (not its items or places)."""

_OPTION_ONLY = frozenset(
    {"and_then", "is_some_and", "is_ok_and", "is_none_or", "map_or", "take_if"}
)


def option_bindings(parameters: ts.Node, scope: str, site: str) -> list[Binding]:
    """The binding of a closure's one untyped parameter (`|r|`) where the closure is an
    argument of an `Option` / `Result`-only method; none otherwise."""
    names = parameters.named_children
    closure = parameters.parent
    arguments = closure.parent if closure is not None else None
    call = arguments.parent if arguments is not None else None
    if len(names) != 1 or names[0].type != "identifier" or call is None or (
        arguments is None or arguments.type != "arguments" or call.type != "call_expression"
    ):  # fmt: skip
        return []
    function = call.child_by_field_name("function")
    method = function.child_by_field_name("field") if function is not None else None
    receiver = function.child_by_field_name("value") if function is not None else None
    if method is None or receiver is None or node_text(method) not in _OPTION_ONLY:
        return []
    name, line = (node_text(names[0]),), first_line(parameters)
    while receiver.type == "reference_expression" and receiver.named_children:
        receiver = receiver.named_children[-1]
    if receiver.type == "identifier":
        return [Binding(scope, name, (node_text(receiver),), "alias", line)]
    place = place_path(receiver)
    if place is not None:
        return [Binding(scope, name, place, "enter", line)]
    if receiver.type != "call_expression":
        return []
    # the receiver's call starts where the calls around it in the chain do (`a.f().and_then(…)`):
    # how many of those are outside it says which of the sites at that byte it is
    outer, node = 0, receiver.parent
    while node is not None and node.start_byte == receiver.start_byte:
        outer += node.type == "call_expression"
        node = node.parent
    value = (site, str(receiver.start_byte), RECEIVER, str(outer))
    return [Binding(scope, name, value, "call", line)]
