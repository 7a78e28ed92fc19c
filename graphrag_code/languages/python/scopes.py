"""Which scope runs each piece of a Python file, and what one parse knows of its definitions
while it reads the file."""

from __future__ import annotations

import sys
from bisect import bisect_right
from dataclasses import dataclass, field

import tree_sitter as ts

__all__ = ["FileState", "ScopeMap"]


@dataclass
class ScopeMap:
    """Which scope runs the code at each byte offset of a file: the definition bodies, met in
    source order, flattened into the offsets where the innermost one changes (before the
    first, and between bodies: the module). Looked up by offset because walking up `parent`
    costs tree-sitter a walk down from the root at each step."""

    module: str
    starts: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # the scope from each of `starts` on
    _open: list[tuple[int, str]] = field(default_factory=list)  # (end, scope), innermost last

    def enter(self, offset: int) -> str:
        """The scope of code at `offset`, while the map is built (offsets in source order):
        the bodies that end by then are closed."""
        while self._open and self._open[-1][0] <= offset:
            end, _ = self._open.pop()
            self.starts.append(end)
            self.names.append(self._open[-1][1] if self._open else self.module)
        return self._open[-1][1] if self._open else self.module

    def open(self, start: int, end: int, scope: str) -> None:
        """A definition body: `scope` runs the code from `start` to `end`."""
        self.enter(start)
        self.starts.append(start)
        self.names.append(scope)
        self._open.append((end, scope))

    def finish(self) -> None:
        self.enter(sys.maxsize)

    def scope_at(self, offset: int) -> str:
        at = bisect_right(self.starts, offset) - 1
        return self.names[at] if at >= 0 else self.module


@dataclass
class FileState:
    module: str
    def_scopes: dict[int, str] = field(default_factory=dict)  # def node id -> its qualified name
    def_kinds: dict[str, str] = field(default_factory=dict)  # qualified name -> node type
    scopes: ScopeMap = field(init=False)  # complete once `symbols.definitions` has run

    def __post_init__(self) -> None:
        self.scopes = ScopeMap(self.module)

    def scope_of(self, node: ts.Node) -> str:
        """Qualified name of the scope that executes `node`: the innermost definition whose
        body holds it."""
        return self.scopes.scope_at(node.start_byte)
