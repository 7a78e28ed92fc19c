"""Python definitions -> `Symbol` records: classes, functions and methods, named by the scope
that holds them, with their signatures, parameters, bases and declared return types."""

from __future__ import annotations

from collections import defaultdict

import tree_sitter as ts

from ...model import Dotted, Symbol, SymbolKind
from ...parsing.records import clipped_signature
from ...parsing.treesitter import first_line, last_line, node_text
from .annotations import returned_type
from .scopes import FileState
from .syntax import docstring_of, dotted_name

__all__ = ["definitions", "parameter_kinds_of", "parameters_of"]


def definitions(
    classes: list[ts.Node], captures: dict[str, list[ts.Node]], state: FileState
) -> tuple[Symbol, ...]:
    """The symbols of a file in source order; fills `state` (its scope map and the names of
    its definitions) on the way."""
    nodes = sorted(classes + captures.get("definition.function", []), key=lambda n: n.start_byte)
    symbols: list[Symbol] = []
    seen: dict[str, int] = defaultdict(int)
    for node in nodes:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            continue
        parent_scope = state.scopes.enter(node.start_byte)
        qualified = f"{parent_scope}.{node_text(name_node)}"
        state.def_scopes[node.id] = qualified
        seen[qualified] += 1
        if seen[qualified] == 1:
            state.def_kinds[qualified] = node.type
        body = node.child_by_field_name("body")
        if body is not None:
            state.scopes.open(body.start_byte, body.end_byte, qualified)
        symbols.append(_symbol(node, qualified, parent_scope, state, seen[qualified]))
    state.scopes.finish()
    return tuple(symbols)


def _symbol(node: ts.Node, qualified: str, parent: str, state: FileState, ordinal: int) -> Symbol:
    outer = node.parent if node.parent and node.parent.type == "decorated_definition" else None
    decorators = tuple(
        node_text(child).lstrip("@").strip()
        for child in (outer.children if outer else [])
        if child.type == "decorator"
    )
    span = outer or node
    body = node.child_by_field_name("body")
    name = qualified.rsplit(".", 1)[1]
    if node.type == "class_definition":
        superclasses = node.child_by_field_name("superclasses")
        parameter_kinds = ""
        bases = tuple(
            base
            for arg in (superclasses.named_children if superclasses else [])
            if arg.type != "keyword_argument"
            for base in [dotted_name(arg) or _generic_base(arg)]
            if base is not None
        )
        signature = f"class {name}{node_text(superclasses) if superclasses else ''}"
        kind = SymbolKind.CLASS
        returns = None
        parameters: tuple[str, ...] = ()
    else:
        params = node.child_by_field_name("parameters")
        return_node = node.child_by_field_name("return_type")
        is_async = bool(node.children) and node.children[0].type == "async"
        arrow = f" -> {node_text(return_node)}" if return_node is not None else ""
        prefix = "async def" if is_async else "def"
        signature = f"{prefix} {name}{node_text(params) if params else '()'}{arrow}"
        kind = (
            SymbolKind.METHOD
            if state.def_kinds.get(parent) == "class_definition"
            else SymbolKind.FUNCTION
        )
        bases = ()
        returns = returned_type(return_node) if return_node is not None else None
        parameters = tuple(name for name, _ in parameters_of(params)) if params else ()
        parameter_kinds = parameter_kinds_of(params) if params else ""
    signature = clipped_signature(signature)
    return Symbol(
        qualified_name=qualified,
        name=name,
        kind=kind,
        parent=parent,
        start_line=first_line(span),
        end_line=last_line(span),
        signature=" ".join(signature.split()),
        docstring=docstring_of(body),
        decorators=decorators,
        code=node_text(span),
        is_async=node.type == "function_definition"
        and bool(node.children)
        and node.children[0].type == "async",
        bases=bases,
        returns=returns,
        parameters=parameters,
        ordinal=ordinal,
        parameter_kinds=parameter_kinds,
    )


def _generic_base(node: ts.Node) -> Dotted | None:
    if node.type == "subscript":  # Generic[T], Base[int]
        value = node.child_by_field_name("value")
        return dotted_name(value) if value is not None else None
    return None


def parameters_of(params: ts.Node) -> list[tuple[str, ts.Node | None]]:
    """(name, annotation node) for every parameter."""
    found: list[tuple[str, ts.Node | None]] = []
    for child in params.named_children:
        annotation = child.child_by_field_name("type")
        if child.type == "identifier":
            found.append((node_text(child), None))
        elif child.type in ("default_parameter", "typed_default_parameter"):
            name = child.child_by_field_name("name")
            if name is not None:
                found.append((node_text(name), annotation))
        elif child.type in ("typed_parameter", "list_splat_pattern", "dictionary_splat_pattern"):
            inner = child.named_children[0] if child.named_children else None
            while inner is not None and inner.type in (
                "list_splat_pattern",
                "dictionary_splat_pattern",
            ):
                inner = inner.named_children[0] if inner.named_children else None
            if inner is not None and inner.type == "identifier":
                found.append((node_text(inner), annotation))
    return found


def parameter_kinds_of(params: ts.Node) -> str:
    """One letter per parameter `parameters_of` lists (see `Symbol.parameter_kinds`)."""
    kinds: list[str] = []
    keyword_only = False
    for child in params.named_children:
        kind = child.type
        if kind == "typed_parameter" and child.named_children:
            kind = child.named_children[0].type if child.named_children[0].type in (
                "list_splat_pattern", "dictionary_splat_pattern"
            ) else kind  # fmt: skip
        if kind == "positional_separator":
            kinds = ["o" if k == "p" else k for k in kinds]
        elif kind == "keyword_separator":
            keyword_only = True
        elif kind == "list_splat_pattern":
            kinds.append("*")
            keyword_only = True
        elif kind == "dictionary_splat_pattern":
            kinds.append("d")
        elif kind in ("identifier", "default_parameter", "typed_default_parameter",
                      "typed_parameter"):  # fmt: skip
            kinds.append("k" if keyword_only else "p")
    return "".join(kinds)
