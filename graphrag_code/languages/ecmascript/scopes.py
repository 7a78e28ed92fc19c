"""What one parse of a TypeScript / JavaScript file knows while it reads it: the named scope
of each node (anonymous functions belong to the scope around them), and the base of the
readers of a file's facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import tree_sitter as ts

from ...model import Symbol, SymbolKind

__all__ = ["FileReader", "FileState", "Grammar", "scope_of"]

Grammar = Literal["typescript", "tsx", "javascript"]


@dataclass
class FileState:
    module: str
    grammar: Grammar
    def_scopes: dict[int, str] = field(default_factory=dict)  # scope node id -> qualified name
    scope_cache: dict[int, str] = field(default_factory=dict)
    kinds: dict[str, SymbolKind] = field(default_factory=dict)
    function_scopes: set[str] = field(default_factory=set)  # named function-like scopes


def scope_of(node: ts.Node, state: FileState) -> str:
    """Qualified name of the named scope that runs `node` (anonymous functions are skipped)."""
    visited: list[int] = []
    current = node.parent
    scope = state.module
    while current is not None:
        cached = state.scope_cache.get(current.id)
        if cached is not None:
            scope = cached
            break
        visited.append(current.id)
        found = state.def_scopes.get(current.id)
        if found is not None:
            scope = found
            break
        current = current.parent
    for node_id in visited:
        state.scope_cache[node_id] = scope
    return scope


class FileReader:
    """Reads facts of one file whose symbols are known, each in the scope that runs it."""

    def __init__(
        self,
        state: FileState,
        captures: dict[str, list[ts.Node]],
        symbols: tuple[Symbol, ...],
    ) -> None:
        self.state = state
        self.captures = captures
        self.symbols = symbols

    def _scope(self, node: ts.Node) -> str:
        return scope_of(node, self.state)

    def _declaring_scope(self, name: ts.Node) -> str:
        """The scope a declared name belongs to: a function's or class's own name is bound
        in the scope around it, not inside it."""
        parent = name.parent
        if parent is not None and parent.id in self.state.def_scopes:
            return self._scope(parent)
        return self._scope(name)

    def _function_scope(self, node: ts.Node) -> str:
        """A function's own scope when it is named, else the named scope around it."""
        return self.state.def_scopes.get(node.id) or self._scope(node)
