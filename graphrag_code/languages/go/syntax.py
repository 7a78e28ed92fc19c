"""Small readings of Go syntax nodes: the type a type expression names, the dotted shape of a
callee, a declaration's doc comment."""

from __future__ import annotations

import re

import tree_sitter as ts

from ...model import Dotted, ParsedFile
from ...parsing.treesitter import node_text

__all__ = [
    "CALLED",
    "ELEMENT",
    "LITERAL_MARK",
    "PACKAGE_MARK",
    "RESULT",
    "RETURNS",
    "STRUCT_MARK",
    "builtin_call",
    "callee_shape",
    "declared_type",
    "doc_comment",
    "element_of",
    "literal_head",
    "package_clause",
    "type_name",
]

LITERAL_MARK = "{}"
"""A callee's head naming a composite literal of a type (`T{}.M()` -> ("T{}", "M"); a
qualified type keeps its dot inside the head: ("pkg.T{}", "M"))."""

CALLED = "()"
"""The end of a dotted part that is called, its result taken (`c.Root().Find()` binds the
result of ("c", "Root()", "Find"))."""

RESULT = "#"
"""A result after the first, by position: `a, b := f()` binds b to the result of
("f", "#1"); f's scope binds ("#1",) to the result's declared type."""

RETURNS = "func()"
"""The head of a declared type standing for a function value's results: `get := func() *T
{…}` binds ("get",) to ("func()", "T"), a later result to ("get", "#1")."""

STRUCT_MARK = "struct{}"
"""The head of an anonymous struct type's name: "struct{}" + the scope declaring it + "@line:col"
(`tests := []struct{ cmd *Command }{…}` binds ("tests",) to ("[]", that name)); its fields are
bindings of (that name, field) in the scope."""

ELEMENT = "[]"
"""The head of a dotted name standing for one element of what follows: a declared type
`[]*T` is ("[]", "T") (slices, arrays, a map's values, a channel's), a value `xs[i]` is
("[]", "xs"), a range variable over `c.Children()` is ("[]", "c", "Children")."""

_CONTAINERS = {
    "slice_type": "element", "array_type": "element",
    "implicit_length_array_type": "element", "map_type": "value", "channel_type": "value",
}  # fmt: skip
_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)
_BUILTINS = frozenset(
    [
        "append",
        "cap",
        "clear",
        "close",
        "complex",
        "copy",
        "delete",
        "imag",
        "len",
        "make",
        "max",
        "min",
        "new",
        "panic",
        "print",
        "println",
        "real",
        "recover",
    ]
)


PACKAGE_MARK = "package "
"""The entry of `ParsedFile.module_names` naming the file's package clause (`package main`):
the parse the incremental state keeps holds no source text to read it from."""


def package_clause(parsed: ParsedFile) -> str | None:
    """The name a file's `package` clause declares."""
    for name in parsed.module_names:
        if name.startswith(PACKAGE_MARK):
            return name[len(PACKAGE_MARK) :]
    match = _PACKAGE.search(parsed.code)
    return match.group(1) if match else None


def builtin_call(name: str) -> bool:
    """A call of one of Go's built-in functions (`len`, `make`, `new`, …)."""
    return name in _BUILTINS


def type_name(node: ts.Node | None) -> Dotted | None:
    """The named type a type expression stands for, pointers and type arguments taken off
    (`*pkg.T[int]` -> ("pkg", "T")); None for slices, maps, funcs and other unnamed types."""
    while node is not None:
        kind = node.type
        if kind == "type_identifier" or kind == "identifier":
            return (node_text(node),)
        if kind == "qualified_type":
            package, name = node.child_by_field_name("package"), node.child_by_field_name("name")
            if package is None or name is None:
                return None
            return (node_text(package), node_text(name))
        if kind == "generic_type":
            node = node.child_by_field_name("type")
        elif kind in ("pointer_type", "parenthesized_type", "type_elem", "type_constraint"):
            node = node.named_children[0] if node.named_children else None
        elif kind == "selector_expression":  # a type written where an expression may stand
            return _dotted(node)
        else:
            return None
    return None


def declared_type(node: ts.Node | None) -> Dotted | None:
    """`type_name`, and containers of a named type as `ELEMENT` and the type (`[]*T`)."""
    if node is not None and node.type in _CONTAINERS:
        named = type_name(node.child_by_field_name(_CONTAINERS[node.type]))
        return (ELEMENT, *named) if named is not None else None
    return type_name(node)


def element_of(node: ts.Node) -> Dotted | None:
    """`xs[i]` on a name -> ("[]", "xs"); None for other subscripts."""
    if node.type != "index_expression":
        return None
    operand = node.child_by_field_name("operand")
    if operand is None or operand.type != "identifier":
        return None
    return (ELEMENT, node_text(operand))


def literal_head(node: ts.Node) -> str | None:
    """The head of a callee on a composite literal (`T{}` or `&T{}`), None for another node."""
    if node.type == "unary_expression" and node.named_children:
        node = node.named_children[-1]
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
        if node.type == "unary_expression" and node.named_children:
            node = node.named_children[-1]
    if node.type != "composite_literal":
        return None
    named = type_name(node.child_by_field_name("type"))
    return ".".join(named) + LITERAL_MARK if named else None


def _dotted(node: ts.Node) -> Dotted | None:
    parts: list[str] = []
    while node.type == "selector_expression":
        field = node.child_by_field_name("field")
        operand = node.child_by_field_name("operand")
        if field is None or operand is None:
            return None
        parts.append(node_text(field))
        node = operand
    if node.type != "identifier":
        return None
    parts.append(node_text(node))
    return tuple(reversed(parts))


def callee_shape(function: ts.Node) -> tuple[Dotted, ts.Node | None]:
    """A callee as dotted parts, and the inner call when it is called on a call's result
    (`NewT().M()` -> (("M",), the call `NewT()`)). A head the linker cannot follow is
    "<expr>" (`xs[i].M()`); a composite literal's is `literal_head`'s."""
    while function.type == "parenthesized_expression" and function.named_children:
        function = function.named_children[0]
    if function.type == "identifier":
        return (node_text(function),), None
    if function.type == "index_expression":  # an instantiated generic function `F[int](x)`
        operand = function.child_by_field_name("operand")
        if operand is not None and operand.type in ("identifier", "selector_expression"):
            return callee_shape(operand)
        return ("<expr>",), None
    names: list[str] = []
    node = function
    while node.type == "selector_expression":
        field = node.child_by_field_name("field")
        operand = node.child_by_field_name("operand")
        if field is None or operand is None:
            return ("<expr>",), None
        names.append(node_text(field))
        node = operand
        while node.type == "parenthesized_expression" and node.named_children:
            inner = node.named_children[0]
            if literal_head(node) is not None:
                break
            node = inner
    names.reverse()
    if not names:
        return ("<expr>",), None
    if node.type == "identifier":
        return (node_text(node), *names), None
    element = element_of(node)
    if element is not None:
        return (*element, *names), None
    if node.type == "call_expression":
        return tuple(names), node
    head = literal_head(node)
    return (head or "<expr>", *names), None


def doc_comment(node: ts.Node) -> str | None:
    """The `//` comment lines right above a declaration, without their markers."""
    lines: list[str] = []
    line = node.start_point[0]
    sibling = node.prev_sibling
    while sibling is not None and sibling.type == "comment" and sibling.end_point[0] == line - 1:
        lines.append(node_text(sibling))
        line = sibling.start_point[0]
        sibling = sibling.prev_sibling
    if not lines:
        return None
    text = []
    for comment in reversed(lines):
        if comment.startswith("//"):
            text.append(comment[2:].removeprefix(" "))
        else:
            text.append(comment.removeprefix("/*").removesuffix("*/").strip())
    return "\n".join(text).strip() or None
