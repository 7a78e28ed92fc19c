"""Dispatch to overrides (issue 19): a call resolved to a method also reaches the methods that
override it in the indexed subclasses, as *possible* CALLS edges.

`transport.handle_request(r)` resolves to the abstract `BaseTransport.handle_request`; at run
time it runs `HTTPTransport.handle_request` or `MockTransport.handle_request`, whichever the
instance is. Static types cannot say which, so every override (through any depth of
subclassing inside the repository) is a possible target, tier `dispatch`, with the reason
"dispatch via `Base.m`". Each file's dispatch edges are part of its links; the file records
the method's name as consulted, so a new override anywhere relinks it (a class that becomes a
subclass by a change of its bases alone is seen at the next full run).

A member a class of ours does not define dispatches the same way: a mixin's `self.send(...)`
runs the `send` of the subclass it is mixed into, `self.get(...)` in a `dict` subclass may run
a subclass's `get`, and reading `self.name` where the class holds a plain class attribute runs
a subclass's property of that name (`AbsentMember`).

A call reaches only the overrides below the class its receiver is known to be (`Receiver`,
`dispatch_receivers.py`): `self.area()` in `Square` runs no `Circle.area`, and an instance
constructed by its class's name runs that class's method alone.

A class constructed through a value rather than by its name (`cls(...)` in a classmethod or
through a parameter, `self.context_class(...)`) may be a subclass: the `__init__` of each
indexed subclass that defines one is a possible callee too (`Constructed`).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...linking.base import MAX_OVERRIDES
from ...linking.index import Lookups, RepositoryIndex
from ...model import Edge, EdgeKind, Resolution, SymbolKind
from .resolver import Resolver, SymbolRef
from .syntax import parse_definition
from .tables import is_property

if TYPE_CHECKING:
    from ...linking.edges import NodeIds

__all__ = [
    "ACCESSOR_KINDS", "MAX_OVERRIDES", "AbsentMember", "Constructed", "DispatchTable", "Receiver",
    "only_raises",
]  # fmt: skip


_LANGUAGES = frozenset({"python"})  # other languages: `callers` derives them at query time
_NEVER = frozenset({"__init__", "__new__", "__init_subclass__", "__post_init__"})


@dataclass(frozen=True)
class AbsentMember:
    """A use of a member its receiver's class (and its bases) does not define: `self.send()`
    in a mixin (`mode` "call"), or a property access (`mode` "get", "set" or "delete") where the
    class holds no property of that name."""

    source: str  # node id of the caller
    class_name: str
    name: str
    line: int
    mode: str


@dataclass(frozen=True)
class Constructed:
    """A call that constructs `class_name` through a value (a parameter, `cls`, an attribute
    of `self`), which may hold a subclass."""

    source: str  # node id of the caller
    class_name: str
    line: int


@dataclass(frozen=True)
class Receiver:
    """What the receiver of a call of the method `name` is known to be: an instance of
    `class_name` or of a subclass (None: unknown), or, `exact`, of that very class (constructed
    by its name), which runs the method it has and no override."""

    source: str  # node id of the caller
    line: int
    name: str
    class_name: str | None
    exact: bool = False


ReceiversAt = Callable[[str, int, str], list[Receiver]]
"""(caller id, line, method name) -> what the receivers of the caller's calls of that method
on that line are known to be (`CallLinker.receivers`)."""

ACCESSOR_KINDS = {"set": "setter", "delete": "deleter"}
"""The property accessor an assignment or a `del` of the attribute runs."""


class DispatchTable:
    """The repository's classes, subclasses and methods, built once per linking run on first
    use, and the dispatch edges of one file's CALLS edges."""

    def __init__(self, index: RepositoryIndex, ids: NodeIds) -> None:
        self.index = index
        self.ids = ids
        self._built = False
        self._owner: dict[str, tuple[str, str]] = {}  # method id -> (class qualified, name)
        self._names: dict[str, str] = {}  # method id -> qualified name
        self._defined: dict[str, dict[str, str]] = defaultdict(dict)  # class -> name -> method
        self._subclasses: dict[str, list[str]] = defaultdict(list)  # class -> direct subclasses
        self._below: dict[tuple[str, str], list[str]] = {}
        self._subclasses_below: dict[str, list[str]] = {}
        self._null_objects: dict[str, bool] = {}  # class -> whether it is a null object

    def edges(
        self,
        edges: Iterable[Edge],
        lookups: Lookups,
        static_lines: Mapping[str, Set[int]] | None = None,
        receivers: ReceiversAt = lambda _source, _line, _name: [],
        reaches: Callable[[str], bool] = lambda _module: True,
    ) -> list[Edge]:
        """The dispatch edges implied by one file's certain CALLS edges: one per (caller,
        override), never where a CALLS edge between the two exists already, nor from a line
        of `static_lines` (caller -> lines of its `super().m()` and `Base.m(self)` calls, which
        run the method they name whatever the instance); from a line whose calls of the
        method have `receivers` (asked only where the method has overrides), only the
        overrides below their classes; none defined in a module whose classes do not `reach`
        the file (`suite_reach`). Records the methods' names and the overrides' modules in
        `lookups` (incremental runs)."""
        static_lines = static_lines or {}
        self._build()
        edges = list(edges)
        existing = {(e.source, e.target) for e in edges if e.kind == EdgeKind.CALLS}
        found: dict[tuple[str, str], Edge] = {}
        for edge in edges:
            if edge.kind != EdgeKind.CALLS or edge.external or edge.target not in self._owner:
                continue
            if edge.resolution not in (Resolution.EXACT, Resolution.INFERRED):
                continue  # a name match is possible already: its overrides say even less
            skipped = static_lines.get(edge.source, ())
            dispatched = tuple(line for line in edge.lines if line not in skipped)
            if not dispatched:
                continue
            owner, name = self._owner[edge.target]
            lookups.names_consulted.add(name)
            base = self._names[edge.target]
            every = self.defined_below(owner, name)
            if not every:
                continue
            for line in dispatched:
                for override in self._reached(
                    owner, name, every, receivers(edge.source, line, name)
                ):
                    module = self.index.symbol_module[override]
                    lookups.modules_consulted.add(module)
                    if self._null_object(override) or not reaches(module):
                        continue
                    target = self.ids.of_target(override)
                    if (edge.source, target) not in existing:
                        _add(found, edge.source, target, (line,), f"dispatch via `{base}`")
        return sorted(found.values(), key=lambda e: (e.source, e.target))

    def _null_object(self, method: str) -> bool:
        """Whether an override belongs to a null object: a class whose methods (two or more,
        `__init__` aside) all do nothing (`pass`, `...`, `return False`), as cleo's
        `NullOutput`. A possible edge to one leads nowhere: it calls nothing and changes
        nothing. A call resolved to it still reaches it; a class that silences one hook
        (a test's `log_exception` that passes) is no null object."""
        symbol = self.index.symbols.get(method)
        if symbol is None:
            return False
        owner = symbol.parent
        found = self._null_objects.get(owner)
        if found is None:
            methods = [m for name, m in self._defined.get(owner, {}).items() if name != "__init__"]
            found = self._null_objects[owner] = len(methods) >= 2 and all(
                self._does_nothing(m) for m in methods
            )
        return found

    def _does_nothing(self, method: str) -> bool:
        symbol = self.index.symbols.get(method)
        return (
            symbol is not None
            and not any(d.rpartition(".")[2] == "overload" for d in symbol.decorators)
            and does_nothing(symbol.code)
        )  # an `@overload` stub stands for the definition after it

    def _reached(
        self, owner: str, name: str, every: list[str], receivers: list[Receiver]
    ) -> list[str]:
        """Which of `every` override of `owner`'s method `name` calls through `receivers` may
        run: those below each receiver's class where it is `owner` or a subclass of it, none
        for an exact one; all where nothing is known of the receivers."""
        if not receivers:
            return every
        found: list[str] = []
        for receiver in receivers:
            if receiver.exact:
                continue
            start = receiver.class_name
            if start is None or (start != owner and start not in self._below_classes(owner)):
                start = owner
            found += [m for m in self.defined_below(start, name) if m not in found]
        return found

    def absent_edges(self, absent: Iterable[AbsentMember], lookups: Lookups) -> list[Edge]:
        """The dispatch edges of members a class lacks: one per (caller, definition in a
        subclass) of a method for a call, of a property (its setter, its deleter) for an
        access. Records names and modules in `lookups` as `edges` does."""
        self._build()
        found: dict[tuple[str, str], Edge] = {}
        for use in absent:
            lookups.names_consulted.add(use.name)
            for definition in self.defined_below(use.class_name, use.name):
                symbol = self.index.symbols[definition]
                if is_property(symbol) != (use.mode != "call"):
                    continue
                lookups.modules_consulted.add(self.index.symbol_module[definition])
                target = self._accessor(definition, use.mode, lookups)
                if target is None:
                    continue
                via = f"dispatch via `{use.class_name}`, which has no `{use.name}` of its own"
                _add(found, use.source, target, (use.line,), via)
        return sorted(found.values(), key=lambda e: (e.source, e.target))

    def constructor_edges(
        self, constructed: Iterable[Constructed], existing: Iterable[Edge], lookups: Lookups
    ) -> list[Edge]:
        """The dispatch edges of classes constructed through values: one per (caller,
        `__init__` of a subclass), never where a CALLS edge between the two exists already.
        Records names and modules in `lookups` as `edges` does."""
        self._build()
        have = {(e.source, e.target) for e in existing if e.kind == EdgeKind.CALLS}
        found: dict[tuple[str, str], Edge] = {}
        for use in constructed:
            lookups.names_consulted.add("__init__")
            for definition in self.defined_below(use.class_name, "__init__"):
                lookups.modules_consulted.add(self.index.symbol_module[definition])
                target = self.ids.of_target(definition)
                if (use.source, target) not in have:
                    via = f"dispatch via `{use.class_name}`, constructed through a value"
                    _add(found, use.source, target, (use.line,), via)
        return sorted(found.values(), key=lambda e: (e.source, e.target))

    def _accessor(self, getter: str, mode: str, lookups: Lookups) -> str | None:
        """The node a use runs: the method or getter itself, or a property's setter or
        deleter (None when it has none)."""
        kind = ACCESSOR_KINDS.get(mode)
        if kind is None:
            return self.ids.of_target(getter)
        ordinal = lookups.accessor(getter, kind)
        return self.ids.of_symbol(getter, ordinal=ordinal) if ordinal is not None else None

    def overrides(self, method_id: str) -> list[str]:
        """Qualified names of the overrides of a method in the subclasses of its class,
        transitively; [] above `MAX_OVERRIDES`."""
        owner, name = self._owner[method_id]
        return self.defined_below(owner, name)

    def defined_below(self, class_name: str, name: str) -> list[str]:
        """Qualified names of the methods called `name` the subclasses of a class define,
        transitively; [] above `MAX_OVERRIDES`."""
        self._build()
        cached = self._below.get((class_name, name))
        if cached is not None:
            return cached
        found = [
            override
            for child in self._below_classes(class_name)
            if (override := self._defined.get(child, {}).get(name)) is not None
        ]
        result = found if len(found) <= MAX_OVERRIDES else []
        self._below[(class_name, name)] = result
        return result

    def _below_classes(self, class_name: str) -> list[str]:
        """The subclasses of a class, transitively, nearest first."""
        cached = self._subclasses_below.get(class_name)
        if cached is not None:
            return cached
        found: list[str] = []
        seen = {class_name}
        frontier = [class_name]
        while frontier:
            following: list[str] = []
            for cls in frontier:
                for child in self._subclasses.get(cls, ()):
                    if child not in seen:
                        seen.add(child)
                        following.append(child)
            found += following
            frontier = following
        self._subclasses_below[class_name] = found
        return found

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        index = self.index
        resolver = Resolver(Lookups(index))  # consulted for the whole run, not for one file
        for qualified, symbol in index.symbols.items():
            if _language(index, qualified) not in _LANGUAGES:
                continue
            if symbol.kind == SymbolKind.CLASS and symbol.ordinal == 1:
                module = index.symbol_module[qualified]
                for base in symbol.bases:
                    target = resolver.resolve_dotted(symbol.parent, base, module)
                    if isinstance(target, SymbolRef) and target.qualified_name != qualified:
                        self._subclasses[target.qualified_name].append(qualified)
            elif symbol.kind == SymbolKind.METHOD:
                parent = index.symbols.get(symbol.parent)
                if parent is None or parent.kind != SymbolKind.CLASS:
                    continue
                if symbol.name in _NEVER:  # no dispatch from a call naming it
                    if symbol.name == "__init__":  # (only from a class built through a value)
                        self._defined[symbol.parent].setdefault(symbol.name, qualified)
                    continue
                method_id = self.ids.of_target(qualified)
                self._owner[method_id] = (symbol.parent, symbol.name)
                self._names[method_id] = qualified
                self._defined[symbol.parent].setdefault(symbol.name, qualified)


def does_nothing(code: str) -> bool:
    """Whether a function's source has a body of only a docstring, `pass`, `...` and a
    `return` of a constant (`False`, `Verbosity.QUIET`) at its end."""
    tree = parse_definition(code)
    if tree is None or len(tree.body) != 1:
        return False
    function = tree.body[0]
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    body = function.body
    if body and isinstance(body[-1], ast.Return):
        returned, body = body[-1].value, body[:-1]
        if returned is not None and not _constant(returned, _parameters(function.args)):
            return False
    return all(
        isinstance(statement, ast.Pass)
        or (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))
        for statement in body
    )


def only_raises(code: str) -> bool:
    """Whether a function's body (its docstring aside) is one `raise` statement: a placeholder
    that stands for a callable not given (`async def empty_send(m) -> NoReturn: raise ...`)."""
    tree = parse_definition(code)
    function = tree.body[0] if tree is not None and len(tree.body) == 1 else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return len(body) == 1 and isinstance(body[0], ast.Raise)


def _parameters(args: ast.arguments) -> set[str]:
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return {arg.arg for arg in every if arg is not None}


def _constant(node: ast.expr, parameters: set[str]) -> bool:
    """A literal or a dotted name read off a module or class (`Verbosity.QUIET`), not off
    a parameter (`self`, `value.hex`)."""
    while isinstance(node, ast.Attribute):
        node = node.value
        if isinstance(node, ast.Name):
            return node.id not in parameters
    return isinstance(node, ast.Constant)


def _add(
    found: dict[tuple[str, str], Edge], source: str, target: str, lines: tuple[int, ...], via: str
) -> None:
    """One dispatch edge per (caller, target): the lines of every use, the first use's `via`."""
    old = found.get((source, target))
    if old is not None:
        lines, via = tuple(sorted({*lines, *old.lines})), old.via or via
    found[(source, target)] = Edge(
        EdgeKind.CALLS, source, target, resolution=Resolution.DISPATCH, lines=lines, via=via
    )


def _language(index: RepositoryIndex, qualified: str) -> str | None:
    module = index.symbol_module.get(qualified)
    info = index.modules.get(module) if module is not None else None
    return info.parsed.language if info is not None else None
