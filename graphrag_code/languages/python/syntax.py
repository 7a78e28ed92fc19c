"""Python's plain syntax as tree-sitter gives it: dotted names, string literals, callees and
docstrings (what the other parts of the parser read names with)."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap

import tree_sitter as ts

from ...model import Dotted
from ...parsing.treesitter import member_chain, node_text

__all__ = [
    "DOTTED_TEXT", "callee_parts", "calls_method", "docstring_of", "dotted_name", "last_value",
    "parse_definition", "string_value",
]  # fmt: skip

DOTTED_TEXT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def dotted_name(node: ts.Node) -> Dotted | None:
    """`a.b.c` -> ("a", "b", "c"); None for anything that is not a plain dotted name."""
    if node.type == "identifier":
        return (node_text(node),)
    if node.type == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        if obj is None or attr is None:
            return None
        head = dotted_name(obj)
        return None if head is None else (*head, node_text(attr))
    return None


def string_value(node: ts.Node) -> str | None:
    try:
        value = ast.literal_eval(node_text(node))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def callee_parts(function: ts.Node) -> tuple[Dotted, Dotted | None]:
    """Dotted callee of a call's `function` node, and the receiver call when chained."""
    direct = dotted_name(function)
    if direct is not None:
        return direct, None
    if function.type != "attribute":
        return ("<expr>",), None
    chain = member_chain(function, "attribute", "attribute", dotted_name)
    if chain is None:
        return ("<expr>",), None
    parts, node = chain.names, chain.base
    if chain.head is not None:
        return (*chain.head, *parts), None
    if node.type == "call":
        inner = node.child_by_field_name("function")
        if inner is not None and inner.type == "identifier" and node_text(inner) == "super":
            return ("super()", *parts), None
        if inner is not None:
            receiver, _ = callee_parts(inner)
            if receiver[0] != "<expr>":
                return tuple(parts), receiver
    return ("<expr>", *parts), None


def docstring_of(body: ts.Node | None) -> str | None:
    if body is None or body.named_child_count == 0:
        return None
    first = body.named_children[0]
    if first.type != "expression_statement" or first.named_child_count != 1:
        return None
    string = first.named_children[0]
    if string.type != "string":
        return None
    value = string_value(string)
    return inspect.cleandoc(value) if value else None


def last_value(node: ts.Node) -> ts.Node | None:
    """The value a chain of assignments ends in (`a = b = f()` -> `f()`)."""
    while node.type == "assignment":
        right = node.child_by_field_name("right")
        if right is None:
            return None
        node = right
    return node


def calls_method(node: ts.Node, method: str) -> bool:
    """Whether a call node calls `<something>.method(...)`."""
    function = node.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return False
    attribute = function.child_by_field_name("attribute")
    return attribute is not None and node_text(attribute) == method


def parse_definition(code: str) -> ast.Module | None:
    """A definition's source parsed, the definition first in the module's body; None when it
    does not parse. Two shapes reach here: indented as in its file (a method as a diff's side
    reads it), or with its first line's indentation lost and the rest kept (a symbol's code as
    the graph keeps it: `@property\n    def verbosity(self):\n        return 1`)."""
    if code[:1].isspace():  # indented as written: a block around it parses it so, strings too
        try:
            block = ast.parse("if 1:\n" + code).body[0]
        except (SyntaxError, ValueError):
            return None
        return ast.Module(body=block.body, type_ignores=[]) if isinstance(block, ast.If) else None
    # the first line lost what the others kept: try it at each depth they show
    rest = [len(line) - len(line.lstrip()) for line in code.splitlines()[1:] if line.strip()]
    for indent in range(min(rest, default=0), -1, -1):
        try:
            return ast.parse(textwrap.dedent(" " * indent + code))
        except (SyntaxError, ValueError):
            continue
    return None
