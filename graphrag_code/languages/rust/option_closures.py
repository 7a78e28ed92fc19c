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
from .closure_calls import chain_depth, named_argument
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
    argument = named_argument(parameters, _OPTION_ONLY)
    if argument is None:
        return []
    parameter, receiver = argument
    name, line = (node_text(parameter),), first_line(parameters)
    while receiver.type == "reference_expression" and receiver.named_children:
        receiver = receiver.named_children[-1]
    if receiver.type == "identifier":
        return [Binding(scope, name, (node_text(receiver),), "alias", line)]
    place = place_path(receiver)
    if place is not None:
        return [Binding(scope, name, place, "enter", line)]
    if receiver.type != "call_expression":
        return []
    value = (site, str(receiver.start_byte), RECEIVER, str(chain_depth(receiver)))
    return [Binding(scope, name, value, "call", line)]
