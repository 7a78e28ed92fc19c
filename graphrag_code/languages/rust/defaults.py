"""`Outer { inner: Default::default(), .. }`: the `default` of the field's type.

A call of `Default::default()` (or `T::default()` with no type written, `Default::default`
only here) that is a field's value in a struct literal makes a value of that field's declared
type, so the impl that runs is that type's `impl Default`. The parser writes such a call as
`Default::default(<the struct's field>)`: the form of a trait-qualified call whose first
argument is the receiver (`resolver.call_and_tier`), which finds the impl of the trait for the
type of that argument — here the field's declared type.
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import Attribute, Call, Expr, InstanceOf, Name
from ...parsing.treesitter import node_text
from .syntax import path_of

__all__ = ["field_default"]

_DEFAULT = ("Default", "default")


def field_default(node: ts.Node, value: Expr) -> Expr:
    """`value`, the record of the call `node`, with the struct literal's field as its first
    argument where it is `Default::default()` as a field's value; else `value` as it is."""
    if not isinstance(value, Call) or value.arguments or not isinstance(value.callee, Name):
        return value
    if value.callee.dotted[-2:] != _DEFAULT:
        return value
    initializer = node.parent
    literal = initializer.parent.parent if initializer and initializer.parent else None
    if initializer is None or literal is None or initializer.type != "field_initializer":
        return value
    field = initializer.child_by_field_name("field")
    struct = path_of(literal.child_by_field_name("name"))
    if field is None or literal.type != "struct_expression" or not struct:
        return value
    return Call(value.callee, ((0, Attribute(InstanceOf(Name(struct)), node_text(field))),))
