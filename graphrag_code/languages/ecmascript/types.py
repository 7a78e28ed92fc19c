"""What TypeScript type annotations name: every type a type expression mentions, and the one
class an annotation declares."""

from __future__ import annotations

import tree_sitter as ts

from ...model import Dotted
from ...parsing.treesitter import collect
from ...parsing.treesitter import node_text as _text
from .syntax import dotted_name

__all__ = ["callback_parameter_types", "element_type", "single_type", "type_names"]


# wrappers whose argument is the type a value really has (`Promise<Foo>` awaited is a Foo)
_WRAPPERS = frozenset({"Promise", "PromiseLike", "Readonly", "Awaited", "NonNullable"})
# collections whose element type `forEach`, `for … of` and `xs[i]` give
_SEQUENCES = frozenset({"Array", "ReadonlyArray", "Set", "ReadonlySet"})


def type_names(node: ts.Node) -> list[Dotted]:
    """Every named type in a type expression (`Map<string, Foo>` -> Map, Foo)."""
    return collect(node, _names_in)


def _names_in(node: ts.Node) -> list[Dotted] | None:
    """The name a type name gives (`type_names`), none for types that name no class; None
    for the others."""
    if node.type == "type_identifier":
        return [(_text(node),)]
    if node.type == "nested_type_identifier":
        dotted = dotted_name(node)
        return [dotted] if dotted is not None else []
    if node.type in ("type_query", "literal_type", "predefined_type"):
        return []
    return None


def single_type(node: ts.Node | None) -> Dotted | None:
    """The one class a type annotation names (`Foo`, `ns.Foo`, `Foo | null`, `Promise<Foo>`),
    or None for anything else (unions, arrays, object types)."""
    if node is None:
        return None
    if node.type == "type_annotation":
        return single_type(node.named_children[0]) if node.named_child_count else None
    if node.type in ("type_identifier", "nested_type_identifier"):
        return dotted_name(node)
    if node.type == "parenthesized_type":
        return single_type(node.named_children[0]) if node.named_child_count else None
    if node.type == "union_type":
        kept = _not_empty(node)
        return single_type(kept) if kept is not None else None
    if node.type == "generic_type":
        name = node.child_by_field_name("name")
        arguments = node.child_by_field_name("type_arguments")
        head = dotted_name(name) if name is not None else None
        if head is None:
            return None
        if head[-1] in _WRAPPERS and arguments is not None and arguments.named_child_count == 1:
            return single_type(arguments.named_children[0])
        return head  # Foo<Bar> is a Foo
    return None


def element_type(node: ts.Node | None) -> Dotted | None:
    """The one class the elements of an array or set type are (`Foo[]`, `Array<Foo>`,
    `readonly Foo[]`, `Set<Foo> | undefined`), or None."""
    if node is None:
        return None
    if node.type in ("type_annotation", "parenthesized_type", "readonly_type"):
        return element_type(node.named_children[0]) if node.named_child_count else None
    if node.type == "union_type":
        return element_type(_not_empty(node))
    if node.type == "array_type":
        return single_type(node.named_children[0]) if node.named_child_count else None
    if node.type == "generic_type":
        name = node.child_by_field_name("name")
        arguments = node.child_by_field_name("type_arguments")
        head = dotted_name(name) if name is not None else None
        if head is not None and head[-1] in _SEQUENCES and arguments is not None:
            only = arguments.named_children if arguments.named_child_count == 1 else []
            return single_type(only[0]) if only else None
    return None


def _not_empty(union: ts.Node) -> ts.Node | None:
    """The one member of a union besides `null`, `undefined` and `void`, if one."""
    kept = [
        child
        for child in union.named_children
        if not (child.type == "literal_type" and _text(child) in ("null", "undefined"))
        and not (child.type == "predefined_type" and _text(child) in ("undefined", "void"))
    ]
    return kept[0] if len(kept) == 1 else None


def callback_parameter_types(node: ts.Node | None) -> list[Dotted | None]:
    """The class of each parameter of a function type (`(h: Handle, i: number) => number`
    gives [Handle, None]), through `| undefined` and parentheses, `this: T` left out; [] for
    other types."""
    while node is not None and node.type in ("type_annotation", "parenthesized_type", "union_type"):
        node = (
            _not_empty(node)
            if node.type == "union_type"
            else (node.named_children[0] if node.named_child_count else None)
        )
    if node is None or node.type != "function_type":
        return []
    params = node.child_by_field_name("parameters")
    return [
        single_type(child.child_by_field_name("type"))
        for child in (params.named_children if params is not None else [])
        if child.type.endswith("_parameter") and not _is_this(child)
    ]


def _is_this(parameter: ts.Node) -> bool:
    """`this: T` declares what `this` is, not a parameter (`(this: Observable<T>, subscriber:
    Subscriber<T>) => …` takes one argument)."""
    pattern = parameter.child_by_field_name("pattern")
    return pattern is not None and pattern.type == "this"
