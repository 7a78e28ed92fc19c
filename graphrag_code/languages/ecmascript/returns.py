"""What a function without a declared return type returns, when its code says so plainly: every
`return` gives `this` (a chainable method: `mocha.grep(…).ui(…)`), or every one gives
`new X(…)` of the same `X` (a factory). The checker infers both for JavaScript and for
TypeScript without an annotation."""

from __future__ import annotations

import tree_sitter as ts

from ...model import Dotted
from ...parsing.treesitter import collect
from .syntax import FUNCTION_NODES, dotted_name, unwrap

__all__ = ["THIS", "plain_return", "returned_values"]

THIS: Dotted = ("this",)  # the return type of a method that returns `this`
_NESTED = FUNCTION_NODES | {
    "class",
    "class_declaration",
    "method_definition",
    "function_declaration",
    "generator_function_declaration",
}


def plain_return(function: ts.Node) -> Dotted | None:
    """`THIS`, the dotted class every `return` constructs, or None (a bare `return`, another
    value, or two different classes)."""
    body = function.child_by_field_name("body")
    if body is None:
        return None
    if body.type != "statement_block":  # `() => new X()`
        return _given(body)
    returns = collect(body, _returns)
    if not returns:
        return None
    values = {
        _given(node.named_children[0]) if node.named_child_count else None for node in returns
    }
    return values.pop() if len(values) == 1 else None


def returned_values(function: ts.Node) -> list[ts.Node]:
    """The expressions a function's own `return`s give (or its expression body)."""
    body = function.child_by_field_name("body")
    if body is None:
        return []
    if body.type != "statement_block":
        return [body]
    return [node.named_children[0] for node in collect(body, _returns) if node.named_child_count]


def _returns(node: ts.Node) -> list[ts.Node] | None:
    """The `return` statements of one function's own code (not of the functions inside it)."""
    if node.type == "return_statement":
        return [node]
    if node.type in _NESTED:
        return []
    return None


def _given(value: ts.Node) -> Dotted | None:
    value = unwrap(value)
    if value.type == "this":
        return THIS
    if value.type == "new_expression":
        constructor = value.child_by_field_name("constructor")
        return dotted_name(constructor) if constructor is not None else None
    return None
