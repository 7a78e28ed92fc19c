"""`let (tred, tclos) = reduction(&g);`: each name has the type of its place in the tuple the
function's signature returns (`-> (List<E>, List<E>)`, `-> Result<(A, B), E>` after `?`).

The parser binds each position of a function's declared tuple result as a binding of the
function named `RESULT` + position (as a struct's fields are bindings of the struct), and each
name of a tuple `let` of a call as a "call" binding of that call's site and position; the
resolver finds the called function and reads its binding for that position.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from ...model import Binding
from ...parsing.treesitter import node_text
from .paths import Path, Scope
from .syntax import type_path

__all__ = ["RESULT", "result_places", "tuple_parts", "tuple_places"]

RESULT = "<result>"
_UNWRAPPED = frozenset({"Result", "Option"})


def tuple_parts(node: ts.Node | None) -> Iterator[tuple[int, ts.Node]]:
    """(position, type) of each part of a declared tuple result: `(A, B)`, `Result<(A, B), E>`,
    `Option<(A, B)>`; nothing for another type."""
    if node is not None and node.type == "generic_type":
        base = node.child_by_field_name("type")
        arguments = node.child_by_field_name("type_arguments")
        if base is not None and node_text(base) in _UNWRAPPED and arguments is not None:
            node = next((c for c in arguments.named_children if c.type != "lifetime"), None)
    if node is None or node.type != "tuple_type":
        return
    yield from enumerate(node.named_children)


def result_places(
    function: str, result: ts.Node | None, scope: Scope, self_type: Path | None, line: int
) -> list[Binding]:
    """`-> (List<E>, Err)`: each place's declared type, bound as the function's `RESULT0`,
    `RESULT1` …"""
    return [
        Binding(function, (f"{RESULT}{position}",), scope.absolute(written, self_type),
                "annotation", line)
        for position, part in tuple_parts(result)
        if (written := type_path(part)) is not None
    ]  # fmt: skip


def tuple_places(
    holder: str,
    name: str,
    declared: ts.Node | None,
    scope: Scope,
    self_type: Path | None,
    line: int,
) -> list[Binding]:
    """`st: &mut (State<G0>, State<G1>)` (a parameter or `let`): each place's declared type,
    bound as `st.0`, `st.1` (the type `st.0` has)."""
    while declared is not None and declared.type in ("reference_type", "pointer_type"):
        declared = declared.child_by_field_name("type")
    if declared is None or declared.type != "tuple_type":
        return []
    return [
        Binding(holder, (f"{name}.{position}",), scope.absolute(written, self_type),
                "annotation", line)
        for position, part in enumerate(declared.named_children)
        if (written := type_path(part)) is not None
    ]  # fmt: skip
