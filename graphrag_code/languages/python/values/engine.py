"""Value flow for Python: which functions, classes, methods, lambdas and instances a name, an
attribute, a container element or a result may hold (issue 15).

`ValueFlowAnalysis.evaluate` turns an `Expr` (see `model.Expr`) into `Values`: the abstract
values it may take, each with the reason it was found, and whether that set is *complete*
(every source of the value was followed to something known). Sources are the parser's
`ValueFlow` records: assignments that reach a use (by position and `Block`), what functions
return or yield, what containers hold, what a decorator returns, and for a parameter the
arguments of every call of its function in the repository (closed world: callers outside the
repository are not seen) and its default.

Types stay the resolver's job: an annotation (`x: Foo`, `-> Foo`, `self`) wins over values,
so `Resolver` answers first and value flow fills in where it has nothing.
"""

from __future__ import annotations

import builtins
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Set
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

from ....linking.index import VALUE_CALLS, Lookups, mentions
from ....model import (
    Binding,
    Block,
    CallArguments,
    Dotted,
    Expr,
    ImportStatement,
    Symbol,
    SymbolKind,
    ValueFlow,
)
from ..resolver import (
    External,
    Instance,
    ModuleRef,
    Resolver,
    SymbolRef,
    Target,
    is_type_variable,
)
from .reaching import is_join, reaching
from .records import (
    ARGUMENT_CALLERS,
    DYNAMIC,
    EMPTY_CONTAINERS,
    IDENTITY,
    IDENTITY_FACTORIES,
    ITERATING,
    SPECIAL_CALLERS,
    Bound,
    Container,
    Generator,
    Inert,
    Lambda,
    Partial,
    SharedValues,
    Super,
    Value,
    Values,
    View,
    chain,
    union,
)

__all__ = [
    "ARGUMENT_CALLERS", "DYNAMIC", "MAX_CALLEES", "MAX_POSSIBLE_CALLEES", "SPECIAL_CALLERS",
    "SharedValues",
    "ValueFlowAnalysis", "Values",
]  # fmt: skip

MAX_CALLEES = 8
"""At most this many targets for one call through values; more is left unresolved."""
MAX_POSSIBLE_CALLEES = 64
"""At most this many *possible* targets (tier `many`) for a call left unresolved because its
values were too many for `MAX_CALLEES` or came through too many callers: flask's
`setupmethod.wrapper_func` calls whichever of the 43 methods `@setupmethod` decorates."""
_MAX_CALLERS = 40  # calls of one function followed for the values of its parameters
_MAX_WIDE_CALLERS = 128  # the same, when only possible targets are looked for (`wide_callables`)
# steps of one wide evaluation, a budget of its own: what it spends must not cut the certain
# answers of the rest of the file short
_MAX_WIDE_STEPS = 20_000
# steps of one evaluation of an implicit call's operand through its parameters' callers, a
# budget of its own: operands are everywhere (Django has ~70k that shallow evaluation leaves
# unknown), so each may spend little, and nothing it spends cuts the rest of the file short.
# 6,000 (was 2,000, chosen on requests) reaches `resp.content` after `resp = self.send(…)` in
# its redirect loop; a profile of Django's link puts the raise at ~4 s of 180 profiled
# seconds, timed only together with stop 41's other rules (BENCHMARKS §13, stop 41)
_MAX_OPERAND_STEPS = 6_000
_MAX_CANDIDATES = 300  # calls of that name examined to find them
_MAX_DEPTH = 24
# a parameter's values come from its callers' arguments, which may be parameters in turn:
# followed this many levels deep (a level is part of every cached result's key, so results
# do not depend on the order files are linked in)
_MAX_LEVEL = 2
# evaluation steps per linked file, a reused result costing the steps computing it took (so
# the cut falls at the same place whatever the cache holds): Django's link stays as fast as
# with 40k steps counted without reuse, and keeps its edges within 12 of 156k (BENCHMARKS §2)
_MAX_STEPS = 5_000_000
_END = 1 << 62  # a position after everything: a module's variables as functions see them
_NONE: frozenset[int] = frozenset()

_UNBOUND_MARK = "<unbound>"  # a memoised "not bound in this scope" (`_closure`)
# the modules whose names in an annotation are special forms or containers (`Any`,
# `Sequence[Foo]`), not the class of the value, and the built-in containers
_TYPING_MODULES = frozenset({"typing", "typing_extensions", "collections", "types", "abc"})
_NOT_A_MEMBER = frozenset({"object", "type", "list", "dict", "set", "frozenset", "tuple"})
# the names of a union annotation that are not its members' classes (`None` is no name there)
_UNION_WORDS = frozenset(
    (*prefix, word) for prefix in ((), ("typing",), ("t",)) for word in ("Union", "Optional")
)


class _Where(NamedTuple):
    """Where an expression is evaluated: its scope, module, position and block.

    A named tuple, not a frozen dataclass: millions are made and hashed as parts of memo
    keys while Django links, and a tuple's construction and hash run in C (link CPU -7 %).
    It is only ever compared with other `_Where`s, at fixed places in those keys."""

    scope: str
    module: str
    at: int
    block: Block
    # where only the assignments of one arm of an `if` (and those before the `if`) count:
    # (the `if`'s first byte, its last, the arm's block); see `_arm_end`
    window: tuple[int, int, Block] | None = None


class _Cut(Exception):
    """The step budget of one file is spent: the rest stays unknown."""


class _Frame:
    """A computation under way: what was cut short below it, and how tall it grew."""

    __slots__ = ("cycles", "depth_cut", "height", "serial")

    def __init__(self, serial: int) -> None:
        self.serial = serial
        self.height = 0  # the height of the tallest computation below it
        self.cycles: set[int] = set()  # stack positions where cycles below it closed
        self.depth_cut = False  # something below it was cut short by the depth limit


@dataclass(frozen=True, slots=True)
class _LocalResult:
    """A result that holds where it was computed: at its depth, and while the computation at
    stack position `anchored` (when there is one, -1 otherwise) is the one numbered `anchor`
    (the computations below it stay the same while it is under way)."""

    values: Values
    modules: Set[str]
    names: Set[str]
    steps: int
    height: int
    cycles: frozenset[int]  # stack positions above it where cycles below it closed
    anchored: int
    anchor: int
    depth_cut: bool

    def holds(self, stack: list[_Frame]) -> bool:
        return self.anchored < 0 or (
            self.anchored < len(stack) and stack[self.anchored].serial == self.anchor
        )


class ValueFlowAnalysis:
    """Evaluates expressions for the files of one linking run (one per linked file, like
    `Resolver`, so what it consults is recorded for that file)."""

    def __init__(self, resolver: Resolver, shared: SharedValues | None = None) -> None:
        self.resolver = resolver
        self.lookups: Lookups = resolver.lookups
        self.index = resolver.lookups.index
        # the computations under way, outermost first, and where each key is in that stack
        self._stack: list[_Frame] = []
        self._active: dict[object, int] = {}
        self._cache: SharedValues = shared if shared is not None else {}
        # results that hold only where they were computed (a cut below them depends on their
        # depth or on a computation still under way above them): reused at the same depth
        # while that computation is under way, for this file only
        self._held_here: dict[tuple[object, int], _LocalResult] = {}
        self._frames = 0  # computations begun, to tell one apart from a later one
        self._steps = 0
        self._level = 0
        # looking for possible targets only: parameters followed through more callers
        self._wide = False
        # what runs, not what the checkers see: `cast(T, v)` is v (`runtime_view`)
        self._uncast = False

    # -- entry points ------------------------------------------------------------------------
    def evaluate(
        self, expr: Expr, scope: str, module: str, at: int, block: Block, *, shallow: bool = False
    ) -> Values:
        """The values of `expr` evaluated at a place; `shallow`: parameters' values are not
        looked for at their callers."""
        level = self._level
        if shallow:
            self._level = _MAX_LEVEL
        try:
            return self._eval(expr, _Where(scope, module, at, block))
        except _Cut:
            return Values.unknown()
        finally:
            self._level = level

    def evaluate_operand(
        self, expr: Expr, scope: str, module: str, at: int, block: Block
    ) -> Values | None:
        """`evaluate` through parameters' callers, on a step budget of its own
        (`_MAX_OPERAND_STEPS`): for an implicit call's operand that shallow evaluation left
        unknown. None when the budget runs out."""
        steps, level = self._steps, self._level
        self._steps = _MAX_STEPS - _MAX_OPERAND_STEPS
        try:
            return self._eval(expr, _Where(scope, module, at, block))
        except _Cut:
            return None
        finally:
            self._steps, self._level = steps, level

    @contextmanager
    def runtime_view(self) -> Iterator[None]:
        """Evaluate as the program runs rather than as the type checkers read it: `cast(T, v)`
        holds v's own values where they are known (for calls no expression writes, which the
        checkers do not judge: `io.TextIOWrapper(cast(BinaryIO, Fixup(s)))` calls
        `Fixup.readable`)."""
        uncast = self._uncast
        self._uncast = True
        try:
            yield
        finally:
            self._uncast = uncast

    def attributes(
        self, value: Value, names: tuple[str, ...], scope: str, module: str, at: int, block: Block
    ) -> Values:
        """`value.a.b` for a value known otherwise (the resolver's type of `request` in
        `request.url`, when it cannot read the attribute's assignments), parameters' values
        not looked for at their callers."""
        where = _Where(scope, module, at, block)

        def chain() -> Values:
            values = Values.of(value)
            for name in names:
                values = self._attribute(values, name, where)
            return values

        return self._shallow(chain)

    def _shallow(self, compute: Callable[[], Values]) -> Values:
        """`compute()` with parameters' values not looked for at their callers (unknown
        when the file's step budget runs out)."""
        level = self._level
        self._level = _MAX_LEVEL
        try:
            return compute()
        except _Cut:
            return Values.unknown()
        finally:
            self._level = level

    def callables(self, values: Values) -> tuple[dict[Target, str], bool]:
        """What calling each value runs: functions, methods, constructors, externals."""
        runs: dict[Target, str] = {}
        complete = values.complete
        try:
            for value, why in values:
                found, known = self._runs(value, why, 0)
                complete = complete and known
                for target, reason in found.items():
                    runs.setdefault(target, reason)
        except _Cut:
            return runs, False
        return runs, complete

    def wide_callables(
        self, expr: Expr, scope: str, module: str, at: int, block: Block
    ) -> tuple[dict[Target, str], bool]:
        """`callables` of a callee left unresolved, its parameters followed through up to
        `_MAX_WIDE_CALLERS` calls instead of `_MAX_CALLERS`: what it finds is only *possible*
        (each call runs one of the values), so it is kept apart from the certain answers (the
        cache keys say which mode computed them)."""
        wide, steps = self._wide, self._steps
        self._wide, self._steps = True, _MAX_STEPS - _MAX_WIDE_STEPS
        try:
            return self.callables(self.evaluate(expr, scope, module, at, block))
        finally:
            self._wide, self._steps = wide, steps

    def call_result(self, values: Values, where: _Where) -> Values:
        try:
            return self._call_result(values, (), where)
        except _Cut:
            return Values.unknown()

    def decorator_values(self, qualified_name: str) -> Values | None:
        """What the name of a decorated definition holds after its decorators ran (None when
        it has none)."""
        flow = self.lookups.decoration(qualified_name)
        if flow is None:
            return None
        try:
            return self._flow_values([flow], None, "")
        except _Cut:
            return Values.unknown()

    def argument(
        self,
        site: CallArguments,
        keys: tuple[int | str, ...],
        module: str,
        *,
        shallow: bool = False,
    ) -> Values | None:
        """The value passed at position or keyword `keys` of a call, None when not passed."""
        for key, value in site.arguments:
            if key in keys:
                return self.evaluate(
                    value, site.scope, module, site.at, site.block, shallow=shallow
                )
        return None

    def class_attribute(self, class_name: str, name: str) -> Values:
        """What `name` holds in the body of the class or of a base (not set on instances),
        parameters' values not looked for at their callers."""
        return self._shallow(lambda: self._class_attribute(class_name, name))

    def special_method(self, value: Value, method: str) -> str | None:
        """The internal method `method` of an instance's class, if the class defines one."""
        if isinstance(value, Instance):
            found = self.resolver.class_member(value.class_name, method, instance=False)
            if isinstance(found, SymbolRef):
                symbol = self.lookups.symbol(found.qualified_name)
                if symbol is not None and symbol.kind == SymbolKind.METHOD:
                    return found.qualified_name
        return None

    # -- evaluation ----------------------------------------------------------------------------
    def _step(self) -> None:
        self._steps += 1
        if self._steps > _MAX_STEPS:
            raise _Cut

    def _memo(self, key: object, compute: object) -> Values:
        """Compute once per key; a key met again while it is computed is unknown (a cycle).

        A result is kept for every file when it holds wherever it is computed: nothing below
        it was cut short, by a cycle or by the depth limit. Any other result is kept for this
        file, reused at the same depth while the computations its cycles closed at are under
        way (`_LocalResult`): sympy's deep chains meet the depth limit everywhere, and
        computing those results again at every use made one file link in 18 s (0.9 s now).

        A result reused from a cache costs what computing it cost (its steps, charged to this
        file's budget), and one that needed more depth than is left here is computed again
        (cut short, it finds some of its values, as it would in a file that met it here
        first): so a file links the same whether it is linked first or after others that
        filled the cache (a split between processes, an incremental run that relinks a few
        files)."""
        key = (self._level, self._wide, self._uncast, key)
        depth = len(self._stack)
        cached = self._cache.get(key)
        if cached is not None and depth + cached[4] <= _MAX_DEPTH:
            values, modules, names, steps, height = cached
            return self._reuse(values, modules, names, steps, height)
        local = self._held_here.get((key, depth))
        if local is not None and local.holds(self._stack):
            self._cut(local.cycles, depth_cut=local.depth_cut)
            return self._reuse(local.values, local.modules, local.names, local.steps, local.height)
        position = self._active.get(key)
        if position is not None:
            self._cut((position,), depth_cut=False)
            return Values.unknown()
        if depth > _MAX_DEPTH:
            self._cut((), depth_cut=True)
            return Values.unknown()
        self._frames += 1
        frame = _Frame(self._frames)
        self._active[key] = depth
        self._stack.append(frame)
        steps = self._steps
        self.lookups.begin()
        try:
            result: Values = compute()  # type: ignore[operator]
        finally:
            del self._active[key]
            self._stack.pop()
            modules, names = self.lookups.end()
        height, steps = frame.height, self._steps - steps
        self._grow(height)
        if not frame.cycles and not frame.depth_cut:  # the answer holds anywhere
            self._cache[key] = (result.copy(), modules, names, steps, height)
            return result
        above = frozenset(p for p in frame.cycles if p < depth) if frame.cycles else _NONE
        self._cut(above, depth_cut=frame.depth_cut)
        # where it holds: while the computations its cycles closed at are under way; one that
        # closed at itself could take another way round under another caller, so while the
        # one that asked for it is
        anchored = depth - 1 if depth in frame.cycles else max(above, default=-1)
        anchor = self._stack[anchored].serial if anchored >= 0 else 0
        self._held_here[(key, depth)] = _LocalResult(
            result.copy(), modules, names, steps, height, above, anchored, anchor, frame.depth_cut
        )
        return result

    def _reuse(
        self, values: Values, modules: Set[str], names: Set[str], steps: int, height: int
    ) -> Values:
        """A result computed before, charged as if computed again."""
        self._steps += steps
        if self._steps > _MAX_STEPS:
            raise _Cut
        self._grow(height)
        self.lookups.replay(modules, names)
        return values.copy()

    def _cut(self, cycles: Iterable[int], depth_cut: bool) -> None:
        """Something below the computation under way was cut short: by cycles that closed at
        these stack positions, or by the depth limit."""
        if self._stack:
            frame = self._stack[-1]
            frame.cycles.update(cycles)
            frame.depth_cut = frame.depth_cut or depth_cut

    def _grow(self, height: int) -> None:
        """A computation of `height` ran (or was reused) inside the one under way."""
        if self._stack and self._stack[-1].height <= height:
            self._stack[-1].height = height + 1

    def _eval(self, expr: Expr, where: _Where) -> Values:
        self._step()
        tag = expr[0]
        if tag == "name":
            values = self._name(expr[1], where)
            for attribute in expr[2:]:
                values = self._attribute(values, attribute, where)
            return values
        if tag == "def":
            return Values.of(SymbolRef(expr[1]))
        if tag == "call":
            return self._call(expr[1], expr[2], where)
        if tag == "attr":
            return self._attribute(self._eval(expr[1], where), expr[2], where)
        if tag == "sub":
            return self._subscript(self._eval(expr[1], where), expr[2], where)
        if tag == "iter":
            return self._items(self._eval(expr[1], where), where)
        if tag == "enter":
            return self._entered(self._eval(expr[1], where), where)
        if tag == "raised":
            return self._raised(self._eval(expr[1], where), where)
        if tag == "isinstance":
            return self._instances(expr[1], where).because(f"`isinstance(…, {_render(expr[1])})`")
        if tag == "await":
            return self._eval(expr[1], where)
        if tag == "sent":
            return self._sent(where.scope)
        if tag == "unlike":
            return self._unlike(self._eval(expr[1], where), self._eval(expr[2], where))
        if tag == "like":
            return self._like(self._eval(expr[1], where), expr[2], where)
        if tag == "at":
            return self._eval(expr[3], _Where(where.scope, where.module, expr[1], expr[2]))
        if tag == "in":  # an argument put in place of a parameter (`_through`): read there
            return self._eval(expr[2], expr[1]).because(expr[3])
        if tag == "armend":
            return self._arm_end(expr, where)
        if tag == "lambda":
            return Values.of(Lambda(where.scope, where.module, expr[1], expr[2], expr[3]))
        if tag in ("list", "tuple", "set", "dict"):
            return Values.of(
                Container(tag, expr[1], where.scope, where.module, where.at, where.block)
            )
        if tag == "comp":
            elements = (expr[2],)  # a dict's: ((key, value),)
            return Values.of(
                Container(expr[1], elements, where.scope, where.module, where.at, where.block)
            )
        if tag == "union":
            return union(self._eval(part, where) for part in expr[1])
        if tag in ("const", "str", "int"):
            return Values.of(Inert())
        return Values.unknown()

    # -- names ---------------------------------------------------------------------------------
    def _name(self, name: str, where: _Where) -> Values:
        key = ("name", name, where)
        return self._memo(key, lambda: self._name_uncached(name, where))

    def _name_uncached(self, name: str, where: _Where) -> Values:
        lookups, module = self.lookups, where.module
        current: str | None = where.scope
        first = True
        while current is not None and current != module:
            symbol = lookups.symbol(current)
            if symbol is None:
                break
            if symbol.kind != SymbolKind.CLASS or first:
                if first:
                    found = self._local(symbol.qualified_name, name, where)
                else:
                    found = self._closure(symbol.qualified_name, name)
                if found is not None:
                    return found
            first = False
            current = symbol.parent
        if where.scope == module:
            return self._module_name(module, name, where)
        return self._global(module, name)

    def _closure(self, scope: str, name: str) -> Values | None:
        """`name` of an enclosing function, seen from a nested one (the same at every use)."""
        key = ("closure", scope, name)
        found = self._memo(key, lambda: self._local(scope, name, None) or _UNBOUND.copy())
        return None if found.dynamic == _UNBOUND_MARK else found

    def _global(self, module: str, name: str) -> Values:
        """A module's global as its functions see it (the same at every use)."""
        # modules import names from each other in cycles (numpy, scipy): the memo's cycle
        # guard makes one met again while it is evaluated unknown
        return self._memo(("global", module, name), lambda: self._module_global(module, name, None))

    def _local(self, scope: str, name: str, where: _Where | None) -> Values | None:
        """`name` in the function or class `scope`, None when not bound there; `where` is
        the use when it is in this very scope (else all its assignments count: a closure
        runs after the enclosing function bound them)."""
        lookups = self.lookups
        names = self.index.scope_names.get(scope)
        if names is not None and name in names.globals:
            return None
        defined = lookups.members(scope, name)
        imports = self.index.scope_imports.get(scope, {}).get(name, [])
        flows = lookups.flows(scope, (name,))
        symbol = lookups.symbol(scope)
        if symbol is None:
            return None
        is_parameter = name in symbol.parameters and symbol.kind != SymbolKind.CLASS
        is_local = names is not None and name in names.names
        if not (defined or imports or flows or is_parameter or is_local):
            return None
        result = Values()
        module = self._module(scope)
        info = self.index.modules.get(module)
        is_package = info.parsed.is_package if info is not None else False
        for qualified in defined:
            result.add(Values.of(SymbolRef(qualified)))
        for statement in imports:
            result.add(self._imported(statement, module, is_package))
        if defined or imports:
            if flows:  # a def and assignments of one name: all of them
                every = [flow for flow in flows if not is_join(flow)]
                result.add(self._flow_values(every, None, f"the variable `{name}`"))
            return result
        if not flows and not is_parameter:
            return Values.unknown()  # bound by something value flow does not record
        if where is not None and where.window is not None:
            start, end, arm = where.window
            flows = [
                f for f in flows if f.at < start or (f.at <= end and f.block[: len(arm)] == arm)
            ]
        reached, entry = reaching(flows, (where.at, where.block) if where else None)
        result.add(self._flow_values(reached, (scope, name), f"the variable `{name}`"))
        if entry and is_parameter:
            result.add(self._parameter(symbol.qualified_name, name))
        elif not result.complete:  # `provider: Router | Starlette | None = scope.get(…)`
            return self._declared_union(scope, name, "variable") or result
        return result

    def _module_name(self, module: str, name: str, where: _Where | None) -> Values:
        """A module's global `name`: its definitions, imports and assignments (all of them
        for a use inside a function, which runs after the module ran)."""
        if where is None:
            return self._global(module, name)  # another module's, through an import
        return self._module_global(module, name, where)

    def _module_global(self, module: str, name: str, where: _Where | None) -> Values:
        lookups, resolver = self.lookups, self.resolver
        info = lookups.module(module)
        if info is None:
            return Values.unknown()
        result = Values()
        for qualified in info.defs.get(name, []):
            result.add(Values.of(SymbolRef(qualified)))
        for statement in info.imports.get(name, []):
            result.add(self._imported(statement, module, info.parsed.is_package))
        flows = lookups.flows(module, (name,))
        extra = [
            f for f in lookups.module_flows(module, name) if len(f.target) == 1 and not is_join(f)
        ]
        if flows or extra:
            reached, _ = reaching(flows, (where.at, where.block) if where else (_END, ()))
            why = f"the variable `{name}`" if where is not None else f"`{module}.{name}`"
            result.add(self._flow_values(reached + extra, (module, name), why))
        if result.found or not result.complete:
            return result
        for star in info.star_imports:
            source = resolver.absolute_module(star, module, info.parsed.is_package)
            if lookups.has_module(source):
                nested = self._module_name(source, name, None)
                if nested.found:
                    return nested
            elif star.level == 0:
                return Values.unknown()  # maybe from an external star import
        if name in info.parsed.module_names:
            return Values.unknown()
        if name in _builtin_names():
            return Values.of(External(("<builtin>", name)))
        return Values.unknown()

    def _imported(self, statement: ImportStatement, module: str, is_package: bool) -> Values:
        """What an import binds: a module, a definition, or a variable of an internal module
        (which the resolver does not follow: `from .tables import HANDLERS`)."""
        resolver = self.resolver
        target = resolver.import_target(statement, module, is_package)
        if target is not None or statement.name is None:
            return _target(target)
        source = resolver.absolute_module(statement, module, is_package)
        if not self.lookups.has_module(source):
            return Values.unknown()
        return self._module_name(source, statement.name, None).because(
            f"`{source}.{statement.name}`"
        )

    def _arm_end(self, expr: Expr, where: _Where) -> Values:
        """`("armend", start, end, arm, name)`: what `name` holds at the end of one arm of
        the `if` spanning bytes start..end (the assignments in that arm, or before the `if`
        where none in the arm dominates its end)."""
        _, start, end, arm, name = expr
        window = _Where(where.scope, where.module, end + 1, arm, (start, end, arm))
        return self._name(name, window)

    def _flow_values(
        self, flows: list[ValueFlow], home: tuple[str, ...] | None, why: str
    ) -> Values:
        result = Values()
        for flow in flows:
            if flow.target[0] == "<default>":
                continue
            values = self._eval(flow.value, self._where_of(flow))
            if flow.value[0] == "call" and _is_decoration(flow.value):
                # an unknown decorator leaves the definition callable by its own name
                values = Values(values.found, True)
                why_here = f"the decorator `{_render(flow.value[1])}`"
            else:
                why_here = why
            if home is not None:
                values = _homed(values, home)
            result.add(values, why_here)
        return result

    def _where_of(self, flow: ValueFlow) -> _Where:
        return _Where(flow.scope, self._module(flow.scope), flow.at, flow.block)

    def _where_of_default(self, function: Symbol, flow: ValueFlow) -> _Where:
        """Where a parameter's default is evaluated: in the scope around the function."""
        parent = function.parent
        return _Where(parent, self._module(parent), flow.at, flow.block)

    def _module(self, scope: str) -> str:
        return self.index.symbol_module.get(scope, scope)

    # -- declared types ------------------------------------------------------------------------
    def _declared(self, flows: list[ValueFlow]) -> tuple[str, ...]:
        """The internal classes an annotation the resolver does not read names
        (`Sequence[Foo]` -> Foo)."""
        classes: list[str] = []
        for flow in flows:
            if flow.value[0] != "declared":
                continue
            symbol = self.lookups.symbol(flow.scope)
            scope = symbol.parent if symbol is not None and flow.target[1] != "self" else flow.scope
            module = self._module(flow.scope)
            for dotted in flow.value[1]:
                target = self.resolver.resolve_dotted(scope, dotted, module)
                if isinstance(target, SymbolRef) and self._is_class(target.qualified_name):
                    classes.append(target.qualified_name)
        return tuple(classes)

    def _shape(self, function: str, name: str, why: str, *, whole: bool = False) -> Values | None:
        """The container a parameter or result (`<return>`) is declared as, with its
        declared element types (`list[Foo]`, `dict[str, Foo]`, `Iterator[Foo]`); `whole`:
        only if it names the type of every element."""
        flows = self.lookups.flows(function, ("<shape>", name))
        if not flows:
            return None
        flow = flows[0]
        if whole and _leaves_out(flow.value):
            return None
        return self._eval(flow.value, self._where_of(flow)).because(why)

    def _unlike(self, values: Values, classes: Values) -> Values:
        """The values that are not instances of one of `classes` (those that are known)."""
        ours, theirs = self._class_names(classes)
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if isinstance(value, Instance) and ours & set(self.resolver.mro(value.class_name)):
                continue
            if isinstance(value, External) and value.inferred and value.dotted in theirs:
                continue
            result.found.setdefault(value, why)
        return result

    def _like(self, values: Values, classes: Expr, where: _Where) -> Values:
        """What `if not isinstance(x, K): return` leaves in x: its values that are instances
        of a K, each as itself (requests' `merge_cookies` keeps the `RequestsCookieJar` its
        callers pass past `isinstance(cookiejar, cookielib.CookieJar)`), and an instance of
        K for what x may hold that is not known (none where all are known and none is a K:
        no call that passes them gets past the test)."""
        ours, theirs = self._class_names(self._eval(classes, where))
        result = Values()
        for value, why in values:
            if self._is_instance_of(value, ours, theirs):
                result.found.setdefault(value, why)
        if not values.complete:
            why = f"`isinstance(…, {_render(classes)})`"
            result.add(self._instances(classes, where).because(why))
        return result

    def _is_instance_of(self, value: Value, ours: set[str], theirs: set[Dotted]) -> bool:
        """Whether a value is an instance of one of the repository's classes `ours` or of
        the external classes `theirs` (a repository class's external bases included; a class
        object is an instance of `type`)."""
        if isinstance(value, Instance):
            mro = self.resolver.mro(value.class_name)
            return bool(ours & set(mro)) or any(
                isinstance(base, External) and base.dotted in theirs
                for cls in mro
                for base in self.resolver._bases(cls)
            )
        if isinstance(value, External):
            return value.inferred and value.dotted in theirs
        if isinstance(value, SymbolRef) and self._is_class(value.qualified_name):
            return any(dotted[-1] == "type" for dotted in theirs)
        return False

    def _class_names(self, classes: Values) -> tuple[set[str], set[Dotted]]:
        """The repository's and the external classes among `classes`, a tuple's included
        (`isinstance(x, (str, URL))`)."""
        ours = {c.qualified_name for c, _ in classes if isinstance(c, SymbolRef)}
        theirs = {c.dotted for c, _ in classes if isinstance(c, External)}
        for nested, _ in classes:
            if isinstance(nested, Container) and nested.kind == "tuple":
                parts = self._container_items(nested)
                ours |= {c.qualified_name for c, _ in parts if isinstance(c, SymbolRef)}
                theirs |= {c.dotted for c, _ in parts if isinstance(c, External)}
        return ours, theirs

    def _sent(self, function: str) -> Values:
        """What `yield v` evaluates to in `function`: an instance of the type its annotation
        says it is sent (`-> Generator[Request, Response, None]`), else unknown."""
        flows = self.lookups.flows(function, ("<sent>",))
        if len(flows) != 1:
            return Values.unknown()
        why = f"what `{function}` is sent, as its `Generator` annotation declares"
        return self._eval(flows[0].value, self._where_of(flows[0])).because(why)

    def _is_class(self, qualified_name: str) -> bool:
        symbol = self.lookups.symbol(qualified_name)
        return symbol is not None and symbol.kind == SymbolKind.CLASS

    def _upcast(self, values: Values, classes: tuple[str, ...]) -> Values:
        """Values where a type is declared, as the checkers see them: an instance of a
        subclass of a declared class is an instance of that class (which method an override
        dispatches to is a question of its own), elements of a container too."""
        if not classes:
            return values
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if isinstance(value, Instance) and value.class_name not in classes:
                base = next((c for c in self.resolver.mro(value.class_name) if c in classes), None)
                value = Instance(base) if base is not None else value
            elif isinstance(value, Container) and not value.declared:
                value = replace(value, declared=classes)
            result.found.setdefault(value, why)
        return result

    # -- parameters ----------------------------------------------------------------------------
    def _parameter(self, function: str, name: str) -> Values:
        # callers are not followed this deep, but what the parameter is declared as (a
        # method's receiver, an annotation) needs none
        deep = self._level >= _MAX_LEVEL
        compute = self._declared_only if deep else self._parameter_values
        return self._memo(("param", function, name), lambda: compute(function, name))

    def _declared_only(self, function: str, name: str) -> Values:
        """A parameter's values from its declaration alone; unknown where it declares none,
        and in `runtime_view` where it declares only external types (the callers' values
        are what runs); incomplete there where it declares an abstract protocol."""
        declared = self._declared_parameter(function, name) or self._declared_union(function, name)
        if declared is None or (self._uncast and _externals_only(declared)):
            return Values.unknown()
        if self._uncast and self._declared_protocol(function, name):
            # what the callers pass may implement it: not all, for them to be followed
            return Values(dict(declared.found), False, declared.dynamic)
        return declared

    def _receiver(self, function: str, name: str) -> Values | None:
        """`self` (or `cls`) of a method: an instance of its class (the class)."""
        symbol = self.lookups.signature(function)
        if symbol is None or symbol.kind != SymbolKind.METHOD or not symbol.parameters:
            return None
        if symbol.parameters[0] != name or "staticmethod" in symbol.decorators:
            return None
        kind = symbol.parameter_kinds[0] if symbol.parameter_kinds else "p"
        return _target(self.resolver._self_value(symbol)) if kind in "po" else None

    def _declared_union(self, function: str, name: str, kind: str = "parameter") -> Values | None:
        """A parameter declared as a union of classes (`stream: SyncByteStream |
        AsyncByteStream | None`, `proxy: ProxyTypes` with `ProxyTypes = Union["URL", str,
        "Proxy"]`): an instance of one of them, as a type checker reads it, where its callers
        do not say which (not followed, too many, or passing what is not known). An instance
        of a class not ours (`str`) runs nothing of ours. None when the annotation names
        anything else (`Any`, a type variable, a name that is not a class or such a union)."""
        declared = {f.value for f in self.lookups.flows(function, ("<declared>", name))}
        if len(declared) > 1:
            return None
        if declared:
            (value,) = declared
            if value[0] != "declared":
                return None
            members: tuple[tuple[str, ...], ...] = value[1]
        else:  # `x: Alias` reads as one class to the parser, which cannot tell
            typed = self.index.scope_bindings.get(function, {}).get((name,), [])
            annotations = {b.value for b in typed if b.kind == "annotation"}
            if len(annotations) != 1:
                return None
            members = tuple(annotations)
        symbol = self.lookups.symbol(function)
        scope = symbol.parent if symbol is not None else function
        where = _Where(scope, self._module(function), _END, ())
        result = Values()
        for dotted in members:
            if dotted in _UNION_WORDS:
                continue
            member = self._declared_member(dotted, where)
            if member is None:
                return None
            spelled = ".".join(dotted)
            result.add(member, f"the {kind} `{name}` of `{function}`, declared `{spelled}`")
        return result if result.found else None

    def _declared_member(self, dotted: tuple[str, ...], where: _Where) -> Values | None:
        """An instance of what one name of a union annotation names: a class (ours or not) or
        a type alias of a union of classes; None for anything else."""
        target = self.resolver.resolve_dotted(where.scope, dotted, where.module)
        if isinstance(target, SymbolRef) and self._is_class(target.qualified_name):
            if self._is_callback_protocol(target.qualified_name):
                return None  # any callable: a class, a function, an instance
            return Values.of(Instance(target.qualified_name))
        if isinstance(target, External):
            if not _foreign_class(target):
                return None
            return Values.of(External(target.dotted, True))
        if target is not None:
            return None
        alias = self._eval(("name", *dotted), where)  # `ProxyTypes = Union["URL", str, "Proxy"]`
        if not alias.complete or not alias.found:
            return None
        result = Values()
        for value, why in alias:
            if isinstance(value, SymbolRef) and self._is_class(value.qualified_name):
                result.add(Values.of(Instance(value.qualified_name)), why)
            elif isinstance(value, External) and _foreign_class(value):
                result.add(Values.of(External(value.dotted, True)), why)
            elif not isinstance(value, Inert):  # `None` in the union
                return None
        return result

    def _declared_parameter(self, function: str, name: str) -> Values | None:
        """What a parameter holds whoever passes it: a method's receiver, an instance of the
        one class its annotation names, the container `list[Foo]` declares; None when its
        annotation says none of these."""
        receiver = self._receiver(function, name)
        if receiver is not None:
            return receiver
        typed = self.index.scope_bindings.get(function, {}).get((name,), [])
        declared = [b for b in typed if self._names_a_type(b)]
        if declared:  # a declared type is what the checkers use: it wins over call sites
            return _target(self.resolver._binding_value(declared, function))
        # `list[Foo]`: its elements are Foos
        return self._shape(function, name, f"the parameter `{name}`")

    def _parameter_values(self, function: str, name: str) -> Values:
        symbol = self.lookups.signature(function)
        if symbol is None:
            return Values.unknown()
        declared_here = self._declared_parameter(function, name)
        # a callback protocol says "something callable so", which a class or a function is
        # as well as an instance: the callers say which, where they do
        callback = declared_here is not None and self._callback_protocols_only(declared_here)
        runtime_only = self._uncast and _externals_only(declared_here or Values())
        # seen as it runs, `stream: AsyncGenerator[bytes, None]` is also what the callers
        # pass that implements it (`request.stream()`, a generator function's object)
        protocol = (
            declared_here
            if self._uncast
            and declared_here is not None
            and not runtime_only
            and self._declared_protocol(function, name)
            else None
        )
        if declared_here is not None and not runtime_only and not callback and protocol is None:
            return declared_here
        # (seen as it runs, `stream: BinaryIO` holds what the callers pass, where known)
        position = symbol.parameters.index(name)
        module = self._module(function)
        declared_as = self._declared(self.lookups.flows(function, ("<declared>", name)))
        why = f"the parameter `{name}` of `{function}`"
        result = Values()
        defaults = self.lookups.flows(function, ("<default>", name))
        default = Values()
        for flow in defaults:
            default.add(self._eval(flow.value, self._where_of_default(symbol, flow)))
        self._level += 1
        try:
            callers = self._callers(function, symbol.name)
            if callers is None:
                if callback:  # too many to say: unknown, for a wide evaluation to look at
                    return Values.unknown()
                if protocol is not None:
                    return _implementing(protocol, default)
                return self._declared_union(function, name) or Values.unknown()
            for site, module, offset in callers:
                passed = self._passed(
                    symbol.parameters, symbol.parameter_kinds, position, site, module, offset
                )
                if passed is None:
                    if defaults:
                        result.add(default, why)
                    continue
                result.add(passed, f"{why} (passed by `{site.scope}`)")
        finally:
            self._level -= 1
        if not callers and defaults:
            result.add(default, why)
        if protocol is not None and not (result.complete and result.found):
            return _implementing(protocol, result)
        if declared_here is not None and not result.found:
            return declared_here
        if not result.complete or not result.found:  # unknown, or only callers outside
            union = self._declared_union(function, name)
            if union is not None:
                return union
        return self._upcast(result, declared_as)

    def _declared_protocol(self, function: str, name: str) -> bool:
        """Whether a parameter is annotated with an abstract protocol and its element types
        (`stream: AsyncGenerator[bytes, None]`, `environ: Mapping[str, str]`): a shape that
        whatever class the callers pass may fill (a generator function's object, a
        `MutableMapping` subclass of ours)."""
        return bool(self.lookups.flows(function, ("<protocol>", name)))

    def _names_a_type(self, binding: Binding) -> bool:
        """Whether a binding is an annotation naming a type the resolver knows, which then
        decides the value (`x: object` too: anything). Not a type variable (`f: F` in flask's
        `setupmethod(f: F) -> F`) nor a name that resolves to nothing such as a type alias
        (`Lifespan[Any]`): the assigned values and the callers say what those hold."""
        if binding.kind not in ("annotation", "class"):
            return False
        target = self.resolver.resolve_dotted(
            binding.scope, binding.value, self._module(binding.scope)
        )
        return target is not None and not is_type_variable(target)

    def _callback_protocols_only(self, values: Values) -> bool:
        return bool(values.found) and all(
            isinstance(value, Instance) and self._is_callback_protocol(value.class_name)
            for value in values.found
        )

    def _is_callback_protocol(self, class_name: str) -> bool:
        """A `Protocol` that declares only `__call__` (starlette's `_MiddlewareFactory`): it
        says "something callable so", which a class or a function is as well as an instance;
        what the callers pass says which."""
        symbol = self.lookups.symbol(class_name)
        if symbol is None or symbol.kind != SymbolKind.CLASS:
            return False
        if self.lookups.member_names(class_name) != {"__call__"}:
            return False
        return any(
            isinstance(base, External) and base.dotted[-1] == "Protocol"
            for base in self.resolver._bases(class_name)
        )

    def _callers(self, function: str, name: str) -> list[tuple[CallArguments, str, int]] | None:
        """The calls of `function` that pass values, with their module and how many leading
        parameters the call fills itself (1 for a bound method), or None when too many."""
        symbol = self.lookups.symbol(function)
        assert symbol is not None
        names = [name]
        owner = self.lookups.symbol(symbol.parent)
        if owner is not None and owner.kind == SymbolKind.CLASS and name == "__init__":
            names.append(owner.name)
        elif owner is not None and owner.kind != SymbolKind.CLASS:
            names.append(f"{owner.name}()")  # a function its enclosing function returns
        elif owner is not None and name == "__call__":
            names.append(VALUE_CALLS)  # `auth(self)`: an instance is called by its variable
        candidates = [entry for n in names for entry in self.lookups.passes_named(n)]
        if len(candidates) > _MAX_CANDIDATES:
            return None
        found: list[tuple[CallArguments, str, int]] = []
        for module, site in candidates:
            where = _Where(site.scope, module, site.at, site.block)
            callee = self._eval(site.callee, where)
            for value, _ in callee:
                offset = self._offset(value, function, symbol.decorators)
                if offset is not None:
                    found.append((site, module, offset))
                    break
        limit = _MAX_WIDE_CALLERS if self._wide else _MAX_CALLERS
        return found if len(found) <= limit else None

    def _offset(self, value: Value, function: str, decorators: tuple[str, ...]) -> int | None:
        """How a callee value reaches `function`: 0 called plainly, 1 bound to an instance or
        class; None when it is not `function`."""
        static = "staticmethod" in decorators
        if isinstance(value, Bound) and value.qualified_name == function:
            return 0 if static else 1
        if isinstance(value, Instance) and function.endswith(".__call__"):
            # `config("DEBUG")` with `config` a `Config`: its class's `__call__`, bound
            return 1 if self.special_method(value, "__call__") == function else None
        if isinstance(value, SymbolRef):
            if value.qualified_name == function:
                return 0
            symbol = self.lookups.symbol(value.qualified_name)
            is_class = symbol is not None and symbol.kind == SymbolKind.CLASS
            if is_class and self.resolver.constructor(value.qualified_name) == function:
                return 1
        return None

    def _passed(
        self,
        parameters: tuple[str, ...],
        kinds: str,
        position: int,
        site: CallArguments,
        module: str,
        offset: int,
    ) -> Values | None:
        """What one call passes to parameter `position`; None when it passes nothing."""
        name = parameters[position]
        kind = kinds[position] if position < len(kinds) else "p"
        where = _Where(site.scope, module, site.at, site.block)
        if kind == "*":
            extra = tuple(
                v for k, v in site.arguments if isinstance(k, int) and k >= position - offset
            )
            stars = tuple(("star", v) for k, v in site.arguments if k == "*")
            return Values.of(
                Container("tuple", extra + stars, site.scope, module, site.at, site.block)
            )
        if kind == "d":
            named = {p for p, k in zip(parameters, kinds, strict=False) if k in "pk"}
            pairs: tuple[tuple[Expr | None, Expr], ...] = tuple(
                (("str", k), v)
                for k, v in site.arguments
                if isinstance(k, str) and k not in ("*", "**") and k not in named
            )
            pairs += tuple((None, v) for k, v in site.arguments if k == "**")
            return Values.of(Container("dict", pairs, site.scope, module, site.at, site.block))
        passed = _argument(site.arguments, name, kind, position - offset)
        if passed is not None:
            return self._eval(passed, where)
        # not passed by itself: maybe inside `*args` / `**kwargs` the call forwards
        spread: Values | None = None
        unpacked = [v for k, v in site.arguments if k == "*"]
        if kind in "po" and len(unpacked) == 1:
            before = sum(1 for k, _ in site.arguments if isinstance(k, int))
            index = position - offset - before
            if index >= 0:
                spread = self._unpacked(self._eval(unpacked[0], where), ("int", index))
        for value in (v for k, v in site.arguments if k == "**"):
            if kind in "pk":
                found = self._unpacked(self._eval(value, where), ("str", name), keyed=True)
                if found is not None:
                    spread = found if spread is None else union((spread, found))
        return spread

    def _unpacked(self, values: Values, key: Expr, *, keyed: bool = False) -> Values | None:
        """Element `key` of the containers a call unpacks (`*args`, `**kwargs`); None when
        none of them holds it."""
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if not isinstance(value, Container):
                result.complete = False
                continue
            if keyed and value.kind == "dict":
                named = [p for p in value.elements if isinstance(p, tuple) and p[0] == key]
                anonymous = [p for p in value.elements if isinstance(p, tuple) and p[0] is None]
                if named or anonymous:
                    result.add(self._element(value, key), why)
            elif not keyed and value.kind in ("tuple", "list"):
                result.add(self._element(value, key), why)
            else:
                result.complete = False
        return result if result.found or not result.complete else None

    # -- attributes ----------------------------------------------------------------------------
    def _attribute(self, values: Values, name: str, where: _Where) -> Values:
        """`value.name` for each value: the attribute's own reason (a property, a class
        attribute) says more than how the object was found, which fills in otherwise."""
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            result.add(self._attribute_of(value, name, where).otherwise(why))
        return result

    def _attribute_of(self, value: Value, name: str, where: _Where) -> Values:
        self._step()
        resolver = self.resolver
        if isinstance(value, ModuleRef):
            named = self._module_name(value.module, name, None)
            submodule = f"{value.module}.{name}" if value.module else name
            if not named.found and self.lookups.has_module(submodule):
                # `import requests.adapters` makes `adapters` an attribute of `requests`
                return Values.of(ModuleRef(submodule))
            return named.because(f"`{value.module}.{name}`" if value.module else "")
        if isinstance(value, External):
            return Values.of(External((*value.dotted, name), value.inferred))
        if isinstance(value, Instance):
            return self._instance_attribute(value.class_name, name)
        if isinstance(value, SymbolRef):
            symbol = self.lookups.symbol(value.qualified_name)
            if symbol is None or symbol.kind != SymbolKind.CLASS:
                return Values.unknown()
            return self._class_attribute(symbol.qualified_name, name)
        if isinstance(value, Super):
            for cls in resolver.mro(value.class_name)[1:]:
                found = self.lookups.members(cls, name)
                if found:
                    return Values.of(Bound(found[0]))
            base = resolver._external_base(value.class_name)
            return Values.of(External((*base.dotted, name), True)) if base else Values.unknown()
        if isinstance(value, Container):  # a method of the built-in container
            return Values.of(View(f"method:{name}", value))
        if isinstance(value, Inert):
            return Values.of(Inert())
        return Values.unknown()

    def _class_attribute(self, class_name: str, name: str) -> Values:
        return self._memo(
            ("class attribute", class_name, name),
            lambda: self._class_attribute_of(class_name, name),
        )

    def _class_attribute_of(self, class_name: str, name: str) -> Values:
        for cls in self.resolver.mro(class_name):
            members = self.lookups.members(cls, name)
            if members:
                member = self.lookups.symbol(members[0])
                if member is not None and "classmethod" in member.decorators:
                    return Values.of(Bound(members[0], class_name))
                return Values.of(SymbolRef(members[0]))
            flows = [f for f in self.lookups.attribute_flows(cls, name) if f.scope == cls]
            if flows:
                return self._flow_values(
                    flows, ("attr", cls, name), f"the attribute `{cls}.{name}`"
                )
        typed = self.resolver.class_member(class_name, name, instance=False)
        return _target(typed) if typed is not None else Values.unknown()

    def _instance_attribute(self, class_name: str, name: str) -> Values:
        return self._memo(
            ("attribute", class_name, name), lambda: self._instance_attribute_of(class_name, name)
        )

    def _instance_attribute_of(self, class_name: str, name: str) -> Values:
        resolver = self.resolver
        if name == "__class__":
            return Values.of(SymbolRef(class_name, True), "`__class__`")
        for cls in resolver.mro(class_name):
            members = self.lookups.members(cls, name)
            if members:
                return self._member_value(members[0], name, class_name)
            annotated = self.lookups.declared_attribute(cls, name)
            flows = self.lookups.attribute_flows(cls, name)
            if flows or annotated is not None:
                bindings = self.lookups.attribute_bindings(cls, name)
                declared = [b for b in bindings if self._names_a_type(b)]
                if declared:
                    return _target(resolver._binding_value(declared, cls))
                why = f"the attribute `{name}`"
                values = self._flow_values(flows, ("attr", cls, name), why)
                values.add(self._stored_outside(class_name, name))
                return self._upcast(values, self._declared([annotated] if annotated else []))
        typed = resolver.class_member(class_name, name, instance=True)
        if typed is not None:
            return _target(typed)
        stored = self._stored_outside(class_name, name)
        if stored.found:
            return stored
        # a class all of ours, without `__getattr__`, that never sets the name: reading it
        # fails, so the value is not one of its instances (one member of a declared union
        # lacking the method the code calls: `stream.close()` on `SyncStream | AsyncStream`)
        return Values() if self._closed_class(class_name) else Values.unknown()

    def _stored_outside(self, class_name: str, name: str) -> Values:
        """What code outside the class stores into `name` of its instances through a
        variable (`s = Session(); s.auth = HTTPDigestAuth(…)`): each store whose receiver
        holds an instance of the class, a subclass or a base (a variable of the base's type
        may hold this class's instance). Only when looking for possible targets (`_wide`):
        a store into one object (a test's `prep.headers = {}`) is not what every instance
        holds, and the certain answers keep to what the class itself assigns, as the type
        checkers do. Receivers are evaluated shallowly; a store whose receiver is unknown is
        left out."""
        result = Values()
        if not self._wide:
            return result
        stores = self.lookups.attribute_stores(name)
        if not stores or len(stores) > _MAX_CANDIDATES:
            return result
        mro = self.resolver.mro(class_name)
        for module, flow in stores:
            where = _Where(flow.scope, module, flow.at, flow.block)
            receivers = self._shallow(partial(self._name, flow.target[0], where))
            if any(
                isinstance(value, Instance)
                and (value.class_name in mro or class_name in self.resolver.mro(value.class_name))
                for value, _ in receivers
            ):
                values = _homed(self._eval(flow.value, where), ("attr", class_name, name))
                result.add(values, f"`{'.'.join(flow.target)} = …`")
        return result

    def _closed_class(self, class_name: str) -> bool:
        """Whether every class of the MRO is the repository's (bar `object`) and none
        defines `__getattr__` / `__getattribute__`: its instances have no attribute it does
        not define or set."""
        resolver = self.resolver
        for cls in resolver.mro(class_name):
            if self.lookups.members(cls, "__getattr__") or self.lookups.members(
                cls, "__getattribute__"
            ):
                return False
            for base in resolver._bases(cls):
                if isinstance(base, External) and base.dotted == ("<builtin>", "object"):
                    continue
                if not isinstance(base, SymbolRef):
                    return False
        return True

    def _member_value(self, qualified: str, name: str, receiver: str) -> Values:
        member = self.lookups.symbol(qualified)
        if member is None:
            return Values.unknown()
        if member.kind == SymbolKind.CLASS:
            return Values.of(SymbolRef(qualified))
        decorators = member.decorators
        if any(d.split(".")[-1] in ("property", "cached_property") for d in decorators):
            return self._function_result(qualified).because(
                f"the property `{member.parent}.{name}`"
            )
        if "staticmethod" in decorators:
            return Values.of(SymbolRef(qualified))
        return Values.of(Bound(qualified, receiver))

    # -- calls ---------------------------------------------------------------------------------
    def _call(
        self, callee: Expr, arguments: tuple[tuple[int | str, Expr], ...], where: _Where
    ) -> Values:
        special = self._special_call(callee, arguments, where)
        if special is not None:
            return special
        return self._call_result(self._eval(callee, where), arguments, where)

    def _special_call(
        self, callee: Expr, arguments: tuple[tuple[int | str, Expr], ...], where: _Where
    ) -> Values | None:
        """Built-ins and decorators whose result value flow knows."""
        if callee == ("name", "super") and not arguments:
            owner = self.resolver._super(where.scope)
            return Values.of(Super(owner)) if owner is not None else Values.unknown()
        if callee[0] == "call":  # functools.wraps(f)(wrapper), lru_cache(maxsize=1)(f), ...
            factory = self._eval(callee[1], where)
            if _externals(factory) & IDENTITY_FACTORIES and arguments:
                if _externals(factory) == {"functools.partial"}:
                    return None
                return self._eval(arguments[0][1], where)
            return None
        if callee[0] != "name":
            return None
        heads = self._eval(callee, where)
        names = _externals(heads)
        if not names or len(heads.found) != 1:
            return None
        (external,) = names
        first = next((v for k, v in arguments if k == 0), None)
        if external in _CASTS and first is not None and len(arguments) == 2:
            if self._uncast:
                own = self._eval(arguments[1][1], where)
                if own.found:
                    return own
            named = repr(first[1]) if first[0] == "str" else _render(first)
            if self._mentions_type_variable(first, where):
                # `cast(F, v)`, `cast(type[F], v)`: a type variable names no class, v's own
                # values stand
                return self._eval(arguments[1][1], where)
            if first[0] == "sub" and _externals(self._eval(first[1], where)) & _TYPE_OF:
                # `cast(type[Foo], v)`: the class itself, not an instance of it
                return self._eval(first[2], where).because(f"`cast({named}, ...)`")
            return self._instances(first, where).because(f"`cast({named}, ...)`")
        if external in IDENTITY and first is not None:
            return self._eval(first, where)
        if external == "functools.partial" and first is not None:
            return Values.of(Partial(first, where.scope, where.module, where.at, where.block))
        if external == "<builtin>.type" and first is not None and len(arguments) == 1:
            result = Values()
            for value, why in self._eval(first, where):
                if isinstance(value, Instance):
                    result.add(
                        Values.of(SymbolRef(value.class_name), why), f"`type({_render(first)})`"
                    )
                else:
                    result.complete = False
            return result
        if external == "<builtin>.getattr" and first is not None and len(arguments) >= 2:
            attribute = arguments[1][1]
            if attribute[0] != "str":
                result = Values.unknown("getattr")
                if len(arguments) > 2:  # the default is one of the values, whatever the name
                    result.add(self._eval(arguments[2][1], where))
                return result
            result = self._attribute(self._eval(first, where), attribute[1], where)
            if len(arguments) > 2:
                result.add(self._eval(arguments[2][1], where))
            return result
        short = external.removeprefix("<builtin>.")
        if short in ("iter", "tuple") and first is not None and first[0] == "tuple":
            return self._eval(first, where)  # `iter((a, b))` yields a, then b: unpacked in place
        if short in ITERATING and first is not None:
            element = (
                ("star", first)
                if short != "enumerate"
                else ("tuple", (("const",), ("iter", first)))
            )
            body = (element,) if short != "enumerate" else (("star", ("list", (element,))),)
            kind = "set" if short in ("set", "frozenset") else "list"
            return Values.of(
                Container(kind, body, where.scope, where.module, where.at, where.block)
            )
        if short == "zip" and first is not None:  # `for ty, x in zip(types, values)`
            iterables = tuple(("iter", value) for key, value in arguments if isinstance(key, int))
            pairs: tuple[Expr, ...] = (("star", ("list", (("tuple", iterables),))),)
            return Values.of(
                Container("list", pairs, where.scope, where.module, where.at, where.block)
            )
        if short == "next" and first is not None:
            result = self._items(self._eval(first, where), where)
            if len(arguments) > 1:
                result.add(self._eval(arguments[1][1], where))
            return result
        if short == "dict" and first is not None and len(arguments) == 1:
            return self._dict_of(self._eval(first, where), where)
        if external == "collections.defaultdict" and len(arguments) == 1 and first is not None:
            first = None  # `defaultdict(list)`: the factory of missing values, an empty dict
        if external in EMPTY_CONTAINERS and first is None:
            kind = EMPTY_CONTAINERS[external]
            pairs = tuple(
                (("str", k), v) for k, v in arguments if isinstance(k, str) and k[0] != "*"
            )
            elements = pairs if kind == "dict" else ()
            return Values.of(
                Container(kind, elements, where.scope, where.module, where.at, where.block)
            )
        if external in DYNAMIC:
            return Values.unknown(DYNAMIC[external])
        return None

    def _instances(self, classes: Expr, where: _Where) -> Values:
        """An instance of the class an expression names (`cast(Foo, v)`, `"Foo"`, an
        `isinstance` test's classes, a declared element type): complete only when every class
        is known."""
        if classes[0] == "str":
            dotted = tuple(classes[1].strip().split("."))
            named = self.resolver.resolve_dotted(where.scope, dotted, where.module)
            values = _target(named)
        elif classes[0] == "tuple":
            return union(self._instances(part, where) for part in classes[1])
        else:
            values = self._eval(classes, where)
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if isinstance(value, SymbolRef) and self._is_class(value.qualified_name):
                result.add(Values.of(Instance(value.qualified_name)), why)
            elif is_type_variable(value):
                result.complete = False
            elif isinstance(value, External) and value.dotted[-1] in ("Any", "object"):
                result.complete = False  # `Iterator[Any]`, `dict[str, object]`: anything
            elif isinstance(value, External) and _names_a_class(value):
                result.add(Values.of(External(value.dotted, True)), why)
            else:
                result.complete = False
        return result

    def _mentions_type_variable(self, expr: Expr, where: _Where) -> bool:
        """Whether a type expression names a type variable: `F`, `type[F]`, `Optional[F]`,
        `dict[str, F]` (the classes it stands for are the value's own)."""
        if expr[0] == "name":
            return self._is_type_variable(expr, where)
        if expr[0] == "sub":
            return self._mentions_type_variable(expr[2], where)
        if expr[0] == "tuple":
            return any(self._mentions_type_variable(part, where) for part in expr[1])
        return False

    def _is_type_variable(self, expr: Expr, where: _Where) -> bool:
        """Whether `expr` names a type variable (`F = TypeVar("F")`), which names no class."""
        values = self._eval(expr, where)
        return bool(values.found) and all(is_type_variable(value) for value, _ in values)

    def _dict_of(self, values: Values, where: _Where) -> Values:
        """`dict(x)`: x itself for a dict; the dict whose items a list of pairs holds."""
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if isinstance(value, Container) and value.kind == "dict":
                result.add(Values.of(value), why)
                continue
            if isinstance(value, Container):
                for item, _ in self._container_items(value):
                    if isinstance(item, View) and item.kind == "pair":
                        result.add(Values.of(item.container), why)
                    else:
                        result.complete = False
                continue
            result.complete = False
        return result

    def _call_result(
        self, callees: Values, arguments: tuple[tuple[int | str, Expr], ...], where: _Where
    ) -> Values:
        result = Values(complete=callees.complete, dynamic=callees.dynamic)
        for value, why in callees:
            result.add(self._result_of(value, arguments, where), why)
        return result

    def _result_of(
        self, value: Value, arguments: tuple[tuple[int | str, Expr], ...], where: _Where
    ) -> Values:
        self._step()
        if isinstance(value, SymbolRef | Bound):
            symbol = self.lookups.symbol(value.qualified_name)
            if symbol is None:
                return Values.unknown()
            if symbol.kind == SymbolKind.CLASS:
                return Values.of(Instance(symbol.qualified_name))
            receiver = value.receiver if isinstance(value, Bound) else None
            if receiver is not None and self.resolver.returns_self(symbol.qualified_name):
                why = f"the return value of `{symbol.qualified_name}` (`Self`)"
                return Values.of(Instance(receiver), why)
            if arguments:
                inlined = self._passed_through(symbol, value, arguments, where)
                if inlined is not None:
                    return inlined
            return self._function_result(symbol.qualified_name)
        if isinstance(value, External):
            if value.dotted[-1][:1].isupper():
                return Values.of(External(value.dotted, inferred=True))
            return Values.unknown()
        if isinstance(value, Lambda):
            return self._eval(value.body, _Where(value.scope, value.module, 0, ()))
        if isinstance(value, Partial):
            function = self._eval(
                value.function, _Where(value.scope, value.module, value.at, value.block)
            )
            return self._call_result(function, (), where)
        if isinstance(value, Instance):
            method = self.special_method(value, "__call__")
            return self._function_result(method) if method else Values.unknown()
        if isinstance(value, View) and value.kind.startswith("method:"):
            return self._container_method(value.container, value.kind[7:], arguments, where)
        if isinstance(value, Inert):
            return Values()
        return Values.unknown()

    def _passed_through(
        self,
        symbol: Symbol,
        callee: SymbolRef | Bound,
        arguments: tuple[tuple[int | str, Expr], ...],
        where: _Where,
    ) -> Values | None:
        """The result of one call of a function whose returns mention its parameters as it
        received them (`merge_setting(request_setting, session_setting)` returns either;
        `pnt_func(f)` returns `double_output(f, …)`, which returns `f`): those returns read
        with the arguments of this call in place of the parameters, so a call's result is
        what that call passed, not what every call passes. None (the result of every call
        alike) where no return mentions such a parameter, or where the function declares
        its result, yields, or this call unpacks arguments."""
        function = symbol.qualified_name
        if self.lookups.declared_return(symbol) is not None or self.resolver.returns_self(function):
            return None
        if any(k in ("*", "**") for k, _ in arguments):
            return None
        offset = self._offset(callee, function, symbol.decorators)
        if offset is None:
            return None
        if where.scope == function or where.scope.startswith(function + "."):
            return None  # a function calling itself: read once, not once per level
        mentioned = self._returned_parameters(symbol, offset)
        if not any(mentioned):
            return None
        key = ("through", function, offset, arguments, where)
        return self._memo(key, lambda: self._through(symbol, offset, mentioned, arguments, where))

    def _returned_parameters(self, symbol: Symbol, offset: int) -> list[frozenset[str]]:
        """For each return of a function (in order), the parameters it mentions that hold
        what the call passed there (no assignment of theirs reaches it); none for a
        generator."""
        function, lookups = symbol.qualified_name, self.lookups
        if lookups.flows(function, ("<yield>",)) or lookups.flows(function, ("<yield from>",)):
            return []
        kinds = symbol.parameter_kinds
        passable = {
            name
            for position, name in enumerate(symbol.parameters)
            if position >= offset and (kinds[position] if position < len(kinds) else "p") in "pok"
        }
        found: list[frozenset[str]] = []
        for flow in lookups.flows(function, ("<return>",)):
            names = set()
            for name in mentions(flow.value) & passable:
                reached, entry = reaching(lookups.flows(function, (name,)), (flow.at, flow.block))
                if entry and not reached:
                    names.add(name)
            found.append(frozenset(names))
        return found

    def _through(
        self,
        symbol: Symbol,
        offset: int,
        mentioned: list[frozenset[str]],
        arguments: tuple[tuple[int | str, Expr], ...],
        where: _Where,
    ) -> Values:
        """`_passed_through`'s result: each return with the arguments passed to the
        parameters it mentions (their defaults where not passed) in their place."""
        function, lookups = symbol.qualified_name, self.lookups
        kinds = symbol.parameter_kinds
        bound: dict[str, Expr] = {}
        for position, name in enumerate(symbol.parameters):
            kind = kinds[position] if position < len(kinds) else "p"
            passed = _argument(arguments, name, kind, position - offset)
            if passed is not None:
                bound[name] = ("in", where, passed, f"the argument `{name}`")
                continue
            defaults = lookups.flows(function, ("<default>", name))
            if len(defaults) == 1:
                place = self._where_of_default(symbol, defaults[0])
                bound[name] = ("in", place, defaults[0].value, f"the default of `{name}`")
        result = Values()
        why = f"the return value of `{function}`"
        returns = lookups.flows(function, ("<return>",))
        for flow, names in zip(returns, mentioned, strict=True):
            value = _substituted(flow.value, {n: bound[n] for n in names if n in bound})
            result.add(self._eval(value, self._where_of(flow)), why)
        return result

    def _function_result(self, function: str) -> Values:
        return self._memo(("result", function), lambda: self._function_result_uncached(function))

    def _function_result_uncached(self, function: str) -> Values:
        symbol = self.lookups.symbol(function)
        if symbol is None:
            return Values.unknown()
        why = f"the return value of `{function}`"
        module = self._module(function)
        if self.resolver.returns_self(function):
            return Values.of(Instance(symbol.parent), f"{why} (`Self`)")
        # a generator function returns a generator object whatever its declared result says
        # (`-> AsyncGenerator[bytes, None]`): where the object is stepped, its body runs
        if self.lookups.flows(function, ("<yield>",)) or self.lookups.flows(
            function, ("<yield from>",)
        ):
            return Values.of(Generator(function), f"the generator `{function}`")
        declared_type = self.lookups.declared_return(symbol)
        if declared_type is not None:
            if declared_type[0] == "type[]":
                held = self.resolver.resolve_dotted(symbol.parent, declared_type[1:], module)
                if isinstance(held, SymbolRef):
                    return Values.of(SymbolRef(held.qualified_name, True), why)
            else:
                declared = self.resolver._call_result(SymbolRef(function))
                # `-> T` with a TypeVar (`def __enter__(self: T) -> T`) says nothing: the
                # returned values do
                if declared is not None and not is_type_variable(declared):
                    return Values.of(declared, why)
        returns = self.lookups.flows(function, ("<return>",))
        # a declared container wins, unless it leaves parts unsaid that the returned values
        # say (`-> tuple[dict[str, str], SyncByteStream | AsyncByteStream]`)
        shape = self._shape(function, "<return>", why, whole=bool(returns))
        if shape is not None and not (returns and self._elements_any(function)):
            return shape
        if not returns:
            return Values.of(Inert())
        declared_as = self._declared(self.lookups.flows(function, ("<declared>", "<return>")))
        returned = self._upcast(self._flow_values(returns, None, why), declared_as)
        # `-> Iterator[Any]` says less than `return iter((self.cls, self.args))`, when that
        # is known (starlette's `Middleware.__iter__`, unpacked into `cls, args, kwargs`)
        if shape is not None and not (returned.complete and returned.found):
            return shape
        return returned

    def _elements_any(self, function: str) -> bool:
        """Whether a function's declared result is a container of anything (`list[Any]`,
        `Iterator[Any]`, `dict[str, object]`)."""
        flows = self.lookups.flows(function, ("<shape>", "<return>"))
        return bool(flows) and _of_anything(flows[0].value)

    def _container_method(
        self,
        container: Container,
        method: str,
        arguments: tuple[tuple[int | str, Expr], ...],
        where: _Where,
    ) -> Values:
        key = next((v for k, v in arguments if k == 0), ("opaque",))
        if method in ("items", "values", "keys"):
            return Values.of(View(method, container))
        if method == "copy":
            return Values.of(container)
        if method in ("get", "pop", "setdefault"):
            result = self._element(container, key)
            fallback = next((v for k, v in arguments if k == 1), None)
            if fallback is not None:
                result.add(self._eval(fallback, where))
            elif method != "pop":  # `pop(key)` without a default raises rather than give None
                result.add(Values.of(Inert()))
            return result
        return Values.unknown()

    # -- containers ----------------------------------------------------------------------------
    def _container_where(self, container: Container) -> _Where:
        return _Where(container.scope, container.module, container.at, container.block)

    def _element(self, container: Container, key: Expr) -> Values:
        """`container[key]` for a literal key, else any element."""
        return self._memo(
            ("element", container, key),
            lambda: self._upcast(self._element_of(container, key), container.declared),
        )

    def _element_of(self, container: Container, key: Expr) -> Values:
        why = _container_why(container)
        where = self._container_where(container)
        if container.kind == "dict":
            pairs = [p for p in container.elements if isinstance(p, tuple)]
            exact = key[0] == "str"
            result = Values()
            matched = False
            for pair_key, value in pairs:
                if pair_key is None:  # {**other}
                    result.add(self._dict_values(self._eval(value, where)))
                    continue
                if not exact or pair_key == key or pair_key[0] not in ("str", "int", "const"):
                    matched = matched or pair_key == key
                    result.add(self._eval(value, where))
            for flow in self._stored(container):
                added = flow.target[-2:] if flow.target[-2] == "<key>" else ()
                if flow.target[-1] == "<items>":
                    result.add(self._dict_values(self._eval(flow.value, self._where_of(flow))))
                elif not exact or not added or added[1] == key[1]:
                    result.add(self._eval(flow.value, self._where_of(flow)))
            return result.because(why)
        if key[0] == "int" and container.kind == "tuple":
            elements = list(container.elements)
            if not any(isinstance(e, tuple) and e[0] == "star" for e in elements):
                index = key[1]
                if -len(elements) <= index < len(elements):
                    return self._eval(elements[index], where).because(why)  # type: ignore[arg-type]
        return self._container_items(container)

    def _container_items(self, container: Container) -> Values:
        """Every element of a list, tuple or set (a dict: its keys)."""
        return self._memo(
            ("items", container),
            lambda: self._upcast(self._container_items_of(container), container.declared),
        )

    def _container_items_of(self, container: Container) -> Values:
        why = _container_why(container)
        where = self._container_where(container)
        result = Values()
        if container.kind == "dict":
            for pair in container.elements:
                key = pair[0] if isinstance(pair, tuple) else None
                result.add(self._eval(key, where) if key is not None else Values.unknown())
            return result
        for element in container.elements:
            if isinstance(element, tuple) and element and element[0] == "star":
                result.add(self._items(self._eval(element[1], where), where))
            else:
                result.add(self._eval(element, where))  # type: ignore[arg-type]
        for flow in self._stored(container):
            values = self._eval(flow.value, self._where_of(flow))
            if flow.target[-1] == "<items>":
                values = self._items(values, self._where_of(flow))
            result.add(values)
        return result.because(why)

    def _dict_values(self, values: Values) -> Values:
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if isinstance(value, Container) and value.kind == "dict":
                result.add(self._element(value, ("opaque",)), why)
            else:
                result.complete = False
        return result

    def _stored(self, container: Container) -> list[ValueFlow]:
        """The additions that may bring a new element: not one taken from the container
        itself (`self.adapters[key] = self.adapters.pop(key)` reorders requests' adapters),
        which holds nothing the others do not, and would only be a cycle."""
        return [f for f in self._additions(container) if not self._restores(f, container)]

    def _restores(self, flow: ValueFlow, container: Container) -> bool:
        value = flow.value
        if value[0] == "call" and value[1][0] == "name" and value[1][-1] in ("pop", "get"):
            receiver: Expr = value[1][:-1]
        elif value[0] == "sub":
            receiver = value[1]
        else:
            return False
        if receiver[0] != "name" or len(receiver) < 2:
            return False
        found = self._eval(receiver, self._where_of(flow))
        return found.complete and set(found.found) == {container}

    def _additions(self, container: Container) -> list[ValueFlow]:
        """Elements stored into the container's home after it was made."""
        home = container.home
        if home is None:
            return []
        marks = ("<item>", "<items>")
        if home[0] == "attr":
            # the class that sets the attribute, and its bases: a mixin's method may add to
            # it (requests' `RequestHooksMixin.register_hook` to `PreparedRequest.hooks`)
            flows = [
                flow
                for cls in self.resolver.mro(home[1])
                for flow in self.lookups.attribute_additions(cls, home[2])
            ]
            return [f for f in flows if f.target[2] in (*marks, "<key>")]
        scope, name = home
        found: list[ValueFlow] = []
        for mark in marks:
            found += self.lookups.flows(scope, (name, mark))
        keyed = self.index.scope_flows.get(scope, {})
        found += [
            f for target, flows in keyed.items() if target[:2] == (name, "<key>") for f in flows
        ]
        if scope in self.index.modules:
            found += [f for f in self.lookups.module_flows(scope, name) if len(f.target) > 1]
        return found

    def _items(self, values: Values, where: _Where) -> Values:
        """One element of each iterable value (`for x in values`)."""
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            self._step()
            if isinstance(value, Container):
                result.add(self._container_items(value), why)
            elif isinstance(value, View):
                result.add(self._view_items(value), why)
            elif isinstance(value, Generator):
                result.add(self._yields(value.function), why)
            elif isinstance(value, Instance):
                method = self.special_method(value, "__iter__")
                iterator = self._function_result(method) if method else Values.unknown()
                if any(
                    isinstance(v, Instance) and v.class_name == value.class_name
                    for v, _ in iterator
                ):
                    method = self.special_method(value, "__next__")
                    result.add(self._function_result(method) if method else Values.unknown(), why)
                else:
                    result.add(self._items(iterator, where), why)
            elif isinstance(value, Inert):
                result.add(Values.of(Inert()))
            else:
                result.complete = False
        return result

    def _view_items(self, view: View) -> Values:
        if view.kind == "items":
            return Values.of(View("pair", view.container))
        if view.kind == "values":
            return self._element(view.container, ("opaque",))
        if view.kind == "keys":
            return self._container_items(view.container)
        return Values.unknown()

    def _yields(self, function: str) -> Values:
        def compute() -> Values:
            result = Values()
            for flow in self.lookups.flows(function, ("<yield>",)):
                result.add(self._eval(flow.value, self._where_of(flow)))
            for flow in self.lookups.flows(function, ("<yield from>",)):
                where = self._where_of(flow)
                result.add(self._items(self._eval(flow.value, where), where))
            declared = self._declared(self.lookups.flows(function, ("<declared>", "<return>")))
            return self._upcast(result, declared).because(f"what `{function}` yields")

        return self._memo(("yields", function), compute)

    def _subscript(self, values: Values, key: Expr, where: _Where) -> Values:
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            self._step()
            if isinstance(value, Container):
                result.add(self._element(value, key), why)
            elif isinstance(value, View) and value.kind == "pair" and key[0] == "int":
                if key[1] == 0:
                    result.add(self._container_items(value.container), why)
                else:
                    result.add(self._element(value.container, ("opaque",)), why)
            elif isinstance(value, Instance):
                method = self.special_method(value, "__getitem__")
                if method is not None:
                    result.add(self._function_result(method), why)
                elif key[0] == "int":  # `cls, args = middleware`: unpacking iterates it
                    result.add(self._unpacked_instance(value, key, where), why)
                else:
                    result.complete = False
            elif isinstance(value, Inert):
                result.add(Values.of(Inert()))
            elif isinstance(value, SymbolRef) and self._is_class(value.qualified_name):
                # `ConfigAttribute[bool]`: the generic class itself (calling it builds one)
                result.add(Values.of(value), why)
            else:
                result.complete = False
        return result

    def _unpacked_instance(self, value: Instance, key: Expr, where: _Where) -> Values:
        """The element at position `key` of an instance unpacked through its `__iter__`
        (starlette's `Middleware.__iter__` returns `iter((self.cls, self.args,
        self.kwargs))`): that position of a tuple it iterates, else any element."""
        method = self.special_method(value, "__iter__")
        if method is None:
            return Values.unknown()
        iterated = self._function_result(method)
        result = Values(complete=iterated.complete, dynamic=iterated.dynamic)
        for inner, why in iterated:
            if isinstance(inner, Container) and inner.kind == "tuple":
                result.add(self._element(inner, key), why)
            else:
                result.add(self._items(Values.of(inner), where), why)
        return result

    def _entered(self, values: Values, where: _Where) -> Values:
        """What `with value as x` binds: `__enter__`'s result (a context manager made by a
        generator function yields it)."""
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if isinstance(value, Instance):
                method = self.special_method(value, "__enter__") or self.special_method(
                    value, "__aenter__"
                )
                if method is not None and self.resolver.returns_self(method):
                    result.add(Values.of(value, f"`{method}` returns `Self`"), why)
                    continue
                result.add(self._function_result(method) if method else Values.unknown(), why)
            elif isinstance(value, Generator):
                result.add(self._yields(value.function), why)
            else:
                result.complete = False
        return result

    def _raised(self, values: Values, where: _Where) -> Values:
        """What `except values as e` binds: an instance of each class."""
        result = Values(complete=values.complete, dynamic=values.dynamic)
        for value, why in values:
            if isinstance(value, SymbolRef):
                result.add(self._result_of(value, (), where), why)
            elif isinstance(value, Container):
                result.add(self._raised(self._container_items(value), where), why)
            elif isinstance(value, External):
                result.add(Values.of(External(value.dotted, True)), why)
            else:
                result.complete = False
        return result

    # -- what a call runs ----------------------------------------------------------------------
    def _runs(self, value: Value, why: str, depth: int) -> tuple[dict[Target, str], bool]:
        self._step()
        if isinstance(value, Bound):
            return {SymbolRef(value.qualified_name, True): why}, True
        if isinstance(value, SymbolRef):
            symbol = self.lookups.symbol(value.qualified_name)
            if symbol is None:
                return {}, False
            return {SymbolRef(value.qualified_name, True): why}, True
        if isinstance(value, External):
            return {External(value.dotted, True): why}, True
        if isinstance(value, Instance):
            method = self.special_method(value, "__call__")
            return ({SymbolRef(method, True): why}, True) if method else ({}, False)
        if isinstance(value, Partial) and depth < 4:
            function = self._eval(
                value.function, _Where(value.scope, value.module, value.at, value.block)
            )
            return self._runs_all(function, chain(why, "`functools.partial`"), depth + 1)
        if isinstance(value, Lambda) and depth < 4:
            body = value.body[3] if value.body[0] == "at" else value.body
            if body[0] != "call":
                return {}, True
            where = _Where(value.scope, value.module, value.body[1], value.body[2])
            callee = self._eval(body[1], where)
            return self._runs_all(callee, chain(why, f"a lambda (line {value.line})"), depth + 1)
        if isinstance(value, View) and value.kind.startswith("method:"):
            kind = "list" if value.container.kind == "tuple" else value.container.kind
            kinds = _BUILTIN_CONTAINERS.get(kind)
            if kinds is not None and not hasattr(kinds[0], value.kind[7:]):
                # `commands.get(...)` where `commands` may be a list too: that value fails
                # there and runs nothing; what only a subclass has (`default_factory`,
                # `move_to_end`, `appendleft`) is not known
                return {}, not any(hasattr(other, value.kind[7:]) for other in kinds[1:])
            return {External(("<builtin>", kind, value.kind[7:]), True): why}, True
        if isinstance(value, Inert):
            return {}, True
        return {}, False

    def _runs_all(self, values: Values, why: str, depth: int) -> tuple[dict[Target, str], bool]:
        runs: dict[Target, str] = {}
        complete = values.complete
        for value, reason in values:
            found, known = self._runs(value, chain(why, reason), depth)
            complete = complete and known
            for target, text in found.items():
                runs.setdefault(target, text)
        return runs, complete


_UNBOUND = Values({}, True, _UNBOUND_MARK)
_CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
_TYPE_OF = frozenset({"typing.Type", "typing_extensions.Type", "<builtin>.type"})


# -- helpers -------------------------------------------------------------------------------------
def _target(target: Target | None) -> Values:
    return Values.of(target) if target is not None else Values.unknown()


def _implementing(shape: Values, passed: Values) -> Values:
    """A parameter declared as an abstract protocol (`shape`, the display of its element
    types, which the checkers take as all it holds), with the values among those `passed`
    that implement it themselves: generator objects and instances of the repository's
    classes (containers passed are already what the shape says)."""
    result = shape.copy()
    for value, why in passed:
        if isinstance(value, Generator | Instance):
            result.add(Values.of(value), why)
    return result


def _externals_only(values: Values) -> bool:
    """Whether every value is an external one (`typing.BinaryIO`, not a class of ours)."""
    return all(isinstance(value, External) for value, _ in values)


def _externals(values: Values) -> set[str]:
    return {v.name for v, _ in values if isinstance(v, External)}


def _of_anything(shape: Expr) -> bool:
    """Whether a declared container's elements may be anything (`Any`, `object`)."""
    if shape[0] == "isinstance" and shape[1][0] == "name":
        return str(shape[1][-1]) in ("Any", "object")
    if shape[0] in ("list", "tuple", "set"):
        return any(_of_anything(part) for part in shape[1])
    if shape[0] == "dict":
        return any(_of_anything(value) for _, value in shape[1])
    return False


def _leaves_out(shape: Expr) -> bool:
    """Whether a declared container's element types leave one out (`("opaque",)`)."""
    if shape[0] == "opaque":
        return True
    if shape[0] in ("list", "tuple", "set"):
        return any(_leaves_out(part) for part in shape[1])
    if shape[0] == "dict":
        return any(_leaves_out(key) or _leaves_out(value) for key, value in shape[1])
    return False


def _names_a_class(target: External) -> bool:
    """Whether an external name in a type's place (`isinstance(x, dict)`, `cast(Foo, v)`,
    `list[timedelta]`) is a class: a built-in type, or any other name (a module's function
    there would be an error); not a built-in function."""
    if target.dotted[0] == "<builtin>":
        return isinstance(getattr(builtins, target.dotted[-1], None), type)
    return True


def _foreign_class(target: External) -> bool:
    """Whether a name of a union annotation, not ours, is the class of a value (`str`,
    `httpcore.URL`): not `Any`, a container (`Sequence[Foo]`: the names inside are not the
    value's class either) nor a type variable. An instance of it runs nothing of ours."""
    dotted = target.dotted
    if dotted[0] in _TYPING_MODULES or is_type_variable(target):
        return False
    return not (dotted[0] == "<builtin>" and dotted[-1] in _NOT_A_MEMBER)


def _is_decoration(value: Expr) -> bool:
    while value[0] == "call":
        arguments = value[2]
        if len(arguments) != 1:
            return False
        value = arguments[0][1]
        if value[0] == "def":
            return True
    return False


def _argument(
    arguments: tuple[tuple[int | str, Expr], ...], name: str, kind: str, index: int
) -> Expr | None:
    """The expression a call passes to parameter `name` of `kind` ("p" positional or
    keyword, "o" positional only, "k" keyword only) at positional `index` (its position less
    those the call fills itself), by itself: not inside `*args` / `**kwargs`."""
    for key, value in arguments:
        if (kind in "po" and key == index) or (kind in "pk" and key == name):
            return value
    return None


def _substituted(expr: Expr, bound: dict[str, Expr]) -> Expr:
    """`expr` with each name of `bound` (and the attributes read from it) replaced by what it
    is bound to; lambdas and comprehensions are left as they are (they run later, or bind
    names of their own)."""
    if not bound:
        return expr
    if expr[0] == "name" and len(expr) >= 2 and expr[1] in bound:
        result = bound[expr[1]]
        for attribute in expr[2:]:
            result = ("attr", result, attribute)
        return result
    if expr[0] in ("lambda", "comp", "in"):
        return expr
    return tuple(
        _substituted(part, bound) if isinstance(part, tuple) and part else part for part in expr
    )


def _render(expr: Expr) -> str:
    """Short source-like text of an expression, for reasons."""
    if expr[0] == "name":
        return ".".join(expr[1:])
    if expr[0] == "call":
        return f"{_render(expr[1])}(…)"
    if expr[0] == "attr":
        return f"{_render(expr[1])}.{expr[2]}"
    return "…"


def _homed(values: Values, home: tuple[str, ...]) -> Values:
    """Containers bound to a variable or attribute learn where they live."""
    if not any(isinstance(v, Container) and v.home is None for v, _ in values):
        return values
    found: dict[Value, str] = {}
    for value, why in values:
        if isinstance(value, Container) and value.home is None:
            value = Container(
                value.kind, value.elements, value.scope, value.module, value.at, value.block,
                home, home[-1],
            )  # fmt: skip
        found[value] = why
    return Values(found, values.complete)


def _container_why(container: Container) -> str:
    if not container.name:
        return ""
    return f"the {container.kind} `{container.name}`"


# each kind of container value: its built-in type, then the subclasses made as that kind
_BUILTIN_CONTAINERS: dict[str, tuple[type, ...]] = {
    "list": (list, deque),
    "dict": (dict, defaultdict, OrderedDict, Counter),
    "set": (set,),
}


def _builtin_names() -> frozenset[str]:
    from ..resolver import BUILTIN_NAMES

    return BUILTIN_NAMES
