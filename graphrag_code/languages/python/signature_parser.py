"""Annotated signatures of one Python file (`Signature` records): each function with an
annotation, and each declared callable type, a module-level alias
(`Send = Callable[[Message], Awaitable[None]]`, `X: TypeAlias = ...`, `type X = ...`) or a
parameter's own `Callable[[...], R]` annotation. The linker matches a call through a value of
a callable type against the functions of that signature (tier `signature`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import tree_sitter as ts

from ...model import Dotted, Signature
from ...parsing.treesitter import node_text

__all__ = ["SignatureExtractor"]

_CALLABLE = frozenset({"Callable"})
_AWAITABLE = frozenset({"Awaitable", "Coroutine"})
_DEFAULTS = frozenset({"default_parameter", "typed_default_parameter"})
_POSITIONAL = frozenset({"identifier", "typed_parameter", *_DEFAULTS})


class SignatureExtractor:
    """Signatures of one file; `one_type` reads an annotation's one class (`annotation_type`)
    and `head` a dotted name (`_dotted`), both the parser's."""

    def __init__(
        self,
        module: str,
        def_scopes: dict[int, str],
        one_type: Callable[[ts.Node], Dotted | None],
        head: Callable[[ts.Node], Dotted | None],
    ) -> None:
        self.module = module
        self.def_scopes = def_scopes
        self.one_type = one_type
        self.head = head

    def extract(self, root: ts.Node, functions: list[ts.Node]) -> list[Signature]:
        found = list(self._aliases(root))
        for node in functions:
            found.extend(self._function(node))
        return found

    # -- declared callable types ----------------------------------------------------------------
    def _aliases(self, root: ts.Node) -> Iterator[Signature]:
        for statement in root.named_children:
            name: ts.Node | None = None
            value: ts.Node | None = None
            if statement.type == "expression_statement" and statement.named_child_count == 1:
                assignment = statement.named_children[0]
                if assignment.type == "assignment":
                    name = assignment.child_by_field_name("left")
                    value = assignment.child_by_field_name("right")
            elif statement.type == "type_alias_statement" and statement.named_child_count == 2:
                name, value = statement.named_children
                if name.type == "type" and name.named_child_count == 1:
                    name = name.named_children[0]
            if name is None or value is None or name.type != "identifier":
                continue
            shape = self.callable_type(value)
            if shape is not None:
                parameters, returns, awaitable = shape
                yield Signature(
                    f"{self.module}.{node_text(name)}", parameters, len(parameters), returns,
                    awaitable, declared=True,
                )  # fmt: skip

    def callable_type(
        self, node: ts.Node
    ) -> tuple[tuple[Dotted | None, ...], Dotted | None, bool] | None:
        """(parameter types, result type, awaitable) of `Callable[[A, B], R]` in an annotation
        or an expression; None for anything else (`Callable[..., R]` included: no parameters
        to match)."""
        parts = self._subscript(node)
        if parts is None:
            return None
        head, arguments = parts
        if head[-1] not in _CALLABLE or len(arguments) != 2:
            return None
        listed = _unwrap(arguments[0])
        if listed.type != "list":
            return None
        parameters = tuple(self.one_type(item) for item in listed.named_children)
        returns, awaitable = self._result(_unwrap(arguments[1]))
        return parameters, returns, awaitable

    def _result(self, node: ts.Node) -> tuple[Dotted | None, bool]:
        parts = self._subscript(node)
        if parts is not None and parts[0][-1] in _AWAITABLE and parts[1]:
            inner = _unwrap(parts[1][-1])  # Awaitable[R], Coroutine[Any, Any, R]
            return (None if inner.type == "none" else self.one_type(inner)), True
        return (None if node.type == "none" else self.one_type(node)), False

    def _subscript(self, node: ts.Node) -> tuple[Dotted, list[ts.Node]] | None:
        """(head, arguments) of `Head[a, b]` as an expression or an annotation."""
        node = _unwrap(node)
        if node.type not in ("subscript", "generic_type") or node.named_child_count < 2:
            return None
        head = self.head(node.named_children[0])
        if head is None:
            return None
        arguments = [c for c in node.named_children[1:] if c.type != "comment"]
        if node.type == "generic_type" and arguments and arguments[0].type == "type_parameter":
            arguments = list(arguments[0].named_children)
        return head, arguments

    # -- functions -----------------------------------------------------------------------------
    def _function(self, node: ts.Node) -> Iterator[Signature]:
        qualified = self.def_scopes.get(node.id)
        params = node.child_by_field_name("parameters")
        if qualified is None or params is None:
            return
        types: list[Dotted | None] = []
        required = 0
        annotated = False
        for child in params.named_children:
            if child.type in ("positional_separator", "comment"):
                continue
            if child.type not in _POSITIONAL or _is_splat(child):
                break  # `*args`, `*`, `**kwargs`: the positional ones end
            annotation = child.child_by_field_name("type")
            if annotation is not None:
                annotated = True
                declared = self.callable_type(annotation)
                name = child.child_by_field_name("name") or (
                    child.named_children[0] if child.named_children else None
                )
                if declared is not None and name is not None:
                    parameters, returns, awaitable = declared
                    yield Signature(
                        f"{qualified}({node_text(name)})", parameters, len(parameters), returns,
                        awaitable, declared=True,
                    )  # fmt: skip
            types.append(self.one_type(annotation) if annotation is not None else None)
            if child.type not in _DEFAULTS:
                required = len(types)
        result = node.child_by_field_name("return_type")
        is_async = bool(node.children) and node.children[0].type == "async"
        if not annotated and result is None:
            return  # nothing to match a declared type against
        returns, awaitable = self._result(_unwrap(result)) if result is not None else (None, False)
        yield Signature(qualified, tuple(types), required, returns, awaitable or is_async)


def _is_splat(parameter: ts.Node) -> bool:
    """`*args: int` / `**kw: str`: a typed parameter around a splat pattern."""
    first = parameter.named_children[0] if parameter.named_children else None
    return first is not None and first.type in ("list_splat_pattern", "dictionary_splat_pattern")


def _unwrap(node: ts.Node) -> ts.Node:
    """An annotation's `type` node is a wrapper around the expression it holds."""
    while node.type == "type" and node.named_child_count == 1:
        node = node.named_children[0]
    return node
