"""Pieces of Java syntax the parser reads: types as dotted names, expressions as `Expr`
records the linker types, literals' types, Javadoc.

Expressions (`expression`): a name or a chain of field accesses on a name is `Name` (`a.b`,
`this`, `super`, `Outer.this`); a method call `Call(callee, arguments)` whose callee is
`Name((m,))` (unqualified) or `Attribute(receiver, m)`; `new T(…)` and a cast `(T) x` are
`InstanceOf(Name(T))`; a literal is `DeclaredAs` its type (`"s"` String, `1` int, `1L`
long, `null` the type `null`); a field of any other expression `Attribute`; an element
`Subscript`; an operation `OneOf` its operands (`DeclaredAs` boolean for a comparison, String
for a `+` with a string literal), `c ? a : b` `OneOf` a and b; anything else `Opaque`.
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import (
    OPAQUE,
    Arguments,
    Attribute,
    Call,
    DeclaredAs,
    Dotted,
    Expr,
    InstanceOf,
    Name,
    OneOf,
    Subscript,
)
from ...parsing.treesitter import node_text

__all__ = [
    "ITEM", "NEW", "arguments", "element_type", "erased_text", "expression", "javadoc",
    "literal_type", "type_dotted",
]  # fmt: skip

ITEM = "<item>"  # a binding's second part: the type of the elements of a generic type
NEW = "new"  # the head of a constructor call's callee: ("new", "Order") (a keyword, no name)

_LITERALS = {
    "string_literal": "String",
    "text_block": "String",
    "character_literal": "char",
    "true": "boolean",
    "false": "boolean",
    "null_literal": "null",
    "class_literal": "Class",
}
_PASS_THROUGH = frozenset({"parenthesized_expression"})
_BOOLEAN_OPERATORS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||", "!", "instanceof"})


def type_dotted(node: ts.Node | None) -> Dotted | None:
    """The type a type node names, type arguments dropped (`java.util.List<String>` ->
    ("java", "util", "List")); an array `T[]` as its element with `[]` on the last part;
    primitives by their keyword; None for `var` and what names no type."""
    if node is None:
        return None
    kind = node.type
    if kind == "type_identifier":
        text = node_text(node)
        return None if text == "var" else (text,)
    if kind == "scoped_type_identifier":
        parts = [node_text(c) for c in node.named_children if c.type == "type_identifier"]
        inner = node.named_children[0] if node.named_children else None
        if inner is not None and inner.type in ("scoped_type_identifier", "generic_type"):
            head = type_dotted(inner) or ()
            return (*head, *parts[-1:])
        return tuple(parts) or None
    if kind == "generic_type":
        return type_dotted(node.named_children[0] if node.named_children else None)
    if kind == "array_type":
        element = type_dotted(node.child_by_field_name("element"))
        if element is None:
            return None
        depth = node_text(node.child_by_field_name("dimensions") or node).count("[")
        return (*element[:-1], element[-1] + "[]" * max(depth, 1))
    if kind in ("integral_type", "floating_point_type", "boolean_type"):
        return (node_text(node),)
    if kind in ("annotated_type",):
        last = node.named_children[-1] if node.named_children else None
        return type_dotted(last)
    return None


def element_type(node: ts.Node | None) -> Dotted | None:
    """The type of a generic type's elements: its last type argument (`List<Node>` Node,
    `Map<String, Node>` Node), None for a wildcard or none."""
    if node is None or node.type != "generic_type":
        return None
    arguments = next((c for c in node.named_children if c.type == "type_arguments"), None)
    last = arguments.named_children[-1] if arguments and arguments.named_children else None
    return type_dotted(last)


def erased_text(node: ts.Node | None, *, varargs: bool = False) -> str:
    """A parameter's type as an overload's name writes it: the last part of the type as
    written, type arguments dropped, arrays and varargs as `[]` (`java.util.List<T>` ->
    `List`, `String...` -> `String[]`)."""
    dotted = type_dotted(node)
    text = dotted[-1] if dotted else (node_text(node) if node is not None else "?")
    return text + "[]" if varargs else text


def literal_type(node: ts.Node) -> str | None:
    """The type of a literal (`1L` long, `2.0` double, `'c'` char), None for no literal."""
    kind = node.type
    if kind in _LITERALS:
        return _LITERALS[kind]
    if kind.endswith("integer_literal"):
        return "long" if node_text(node)[-1:] in "lL" else "int"
    if kind.endswith("floating_point_literal"):
        return "float" if node_text(node)[-1:] in "fF" else "double"
    return None


def _name_chain(node: ts.Node) -> Dotted | None:
    """`a.b.c` of identifiers and field accesses, `this`, `super`, `Outer.this`."""
    kind = node.type
    if kind in ("identifier", "this", "super"):
        return (node_text(node),)
    if kind == "field_access":
        obj = node.child_by_field_name("object")
        field = node.child_by_field_name("field")
        if obj is None or field is None:
            return None
        head = _name_chain(obj)
        return None if head is None else (*head, node_text(field))
    if kind == "scoped_identifier":
        return tuple(node_text(node).replace(" ", "").split("."))
    return None


def expression(node: ts.Node | None) -> Expr:
    """The `Expr` record of an expression (see the module's docstring)."""
    if node is None:
        return OPAQUE
    while node.type in _PASS_THROUGH and node.named_children:
        node = node.named_children[0]
    chain = _name_chain(node)
    if chain is not None:
        return Name(chain)
    kind = node.type
    if kind == "method_invocation":
        return Call(callee(node), arguments(node.child_by_field_name("arguments")))
    if kind == "object_creation_expression":
        created = type_dotted(node.child_by_field_name("type"))
        return InstanceOf(Name(created)) if created else OPAQUE
    if kind == "cast_expression":
        cast = type_dotted(node.child_by_field_name("type"))
        return InstanceOf(Name(cast)) if cast else OPAQUE
    if kind == "field_access":
        return Attribute(
            expression(node.child_by_field_name("object")),
            node_text(node.child_by_field_name("field") or node),
        )
    if kind == "array_access":
        return Subscript(expression(node.child_by_field_name("array")), OPAQUE)
    if kind in ("binary_expression", "unary_expression", "update_expression"):
        return _operation(node)
    if kind == "ternary_expression":
        return OneOf(
            (expression(node.child_by_field_name("consequence")),
             expression(node.child_by_field_name("alternative")))
        )  # fmt: skip
    literal = literal_type(node)
    if literal is not None:
        return DeclaredAs(((literal,),))
    return OPAQUE


def _operation(node: ts.Node) -> Expr:
    """An operator's result: `boolean` for comparisons and logic, `String` for a `+` with a
    string, else the operands' (the wider numeric type of the two: `resolver.argument`)."""
    operator = node.child_by_field_name("operator")
    symbol = node_text(operator) if operator is not None else ""
    if symbol in _BOOLEAN_OPERATORS:
        return DeclaredAs((("boolean",),))
    operands = tuple(expression(child) for child in node.named_children)
    if symbol == "+" and DeclaredAs((("String",),)) in operands:
        return DeclaredAs((("String",),))
    return operands[0] if len(operands) == 1 else OneOf(operands)


def callee(node: ts.Node) -> Expr:
    """A method invocation's callee: `Name((m,))` or `Attribute(receiver, m)`."""
    name = node_text(node.child_by_field_name("name") or node)
    obj = node.child_by_field_name("object")
    return Name((name,)) if obj is None else Attribute(expression(obj), name)


def arguments(node: ts.Node | None) -> Arguments:
    if node is None:
        return ()
    return tuple((at, expression(arg)) for at, arg in enumerate(node.named_children))


def javadoc(text: str) -> str:
    """A `/** … */` comment's text without its markers and leading `*`s."""
    body = text.removeprefix("/**").removesuffix("*/")
    lines = [line.strip().removeprefix("*").strip() for line in body.splitlines()]
    return "\n".join(lines).strip()
