"""What a function without a declared return type returns, when its code says so plainly: every
`return` gives `this` (a chainable method: `mocha.grep(…).ui(…)`), or every one gives
`new X(…)` of the same `X` (a factory), directly or through a `const` of the function's own
code; a `return` of no value (or `undefined`, `null`) does not count. The checker infers both
for JavaScript and for TypeScript without an annotation."""

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
    given = [node.named_children[0] for node in returns if not _empty(node)]
    if not given:
        return None
    values = {_given(value, body) for value in given}
    return values.pop() if len(values) == 1 else None


def _empty(statement: ts.Node) -> bool:
    """`return;`, `return undefined`, `return null`: no value, which the checker's `T |
    undefined` leaves to a narrowing or an optional call (`Performance.mark(…)?.stop()`)."""
    if not statement.named_child_count:
        return True
    value = unwrap(statement.named_children[0])
    return value.type in ("undefined", "null") or (
        value.type == "identifier" and value.text == b"undefined"
    )


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


def _given(value: ts.Node, body: ts.Node | None = None) -> Dotted | None:
    value = unwrap(value)
    if value.type == "identifier" and body is not None:  # `const m = new M(…); … return m`
        made = _constant(body, value.text or b"")
        value = unwrap(made) if made is not None else value
    if value.type == "this":
        return THIS
    if value.type == "new_expression":
        constructor = value.child_by_field_name("constructor")
        return dotted_name(constructor) if constructor is not None else None
    return None


def _constant(body: ts.Node, name: bytes) -> ts.Node | None:
    """The value of the one `const name = …` of a function's own code, if one."""
    found = collect(body, lambda node: _const_named(node, name))
    return found[0] if len(found) == 1 else None


def _const_named(node: ts.Node, name: bytes) -> list[ts.Node] | None:
    if node.type in _NESTED:
        return []
    if node.type != "lexical_declaration" or not any(c.type == "const" for c in node.children):
        return None
    values = []
    for declarator in node.named_children:
        own = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if own is not None and own.text == name and value is not None:
            values.append(value)
    return values
