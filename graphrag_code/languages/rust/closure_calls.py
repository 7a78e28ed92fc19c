"""`receiver.method(|x| …)`: the method call a closure is passed to, read by the rules that
type a closure's one parameter from that call's receiver (`loops.adaptor_bindings`,
`entries.closure_entries`, `option_closures`)."""

from __future__ import annotations

from typing import NamedTuple

import tree_sitter as ts

from ...parsing.treesitter import node_text

__all__ = ["ClosureCall", "chain_depth", "closure_call", "named_argument"]


class ClosureCall(NamedTuple):
    """The method call around a closure: `receiver.method(…)`."""

    method: str
    receiver: ts.Node
    call: ts.Node
    in_arguments: bool
    """The closure is one of the call's arguments (the rules for adaptors ask for that)."""


def closure_call(parameters: ts.Node) -> ClosureCall | None:
    """The method call whose arguments hold the closure of these parameters; None where the
    closure's grandparent is no call of a method."""
    closure = parameters.parent
    arguments = closure.parent if closure is not None else None
    call = arguments.parent if arguments is not None else None
    if arguments is None or call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    method = function.child_by_field_name("field") if function is not None else None
    receiver = function.child_by_field_name("value") if function is not None else None
    if method is None or receiver is None:
        return None
    return ClosureCall(node_text(method), receiver, call, arguments.type == "arguments")


def named_argument(parameters: ts.Node, methods: frozenset[str]) -> tuple[ts.Node, ts.Node] | None:
    """`receiver.m(|x| …)` with `m` one of `methods`: the closure's one parameter, a plain
    name (`x`, no pattern or type), and the receiver; None for another closure."""
    names = parameters.named_children
    around = closure_call(parameters)
    if len(names) != 1 or names[0].type != "identifier" or around is None or (
        not around.in_arguments or around.method not in methods
    ):  # fmt: skip
        return None
    return names[0], around.receiver


def chain_depth(receiver: ts.Node) -> int:
    """How many calls of a chain lie outside a receiver's call: the calls around it start at
    its byte (`a.f().map(…)`), so that count says which of the sites at that byte it is."""
    outer, node = 0, receiver.parent
    while node is not None and node.start_byte == receiver.start_byte:
        outer += node.type == "call_expression"
        node = node.parent
    return outer
