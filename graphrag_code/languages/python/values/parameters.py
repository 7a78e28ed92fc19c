"""Parameters in Python value flow: what a parameter holds, from the arguments of the calls
of its function in the repository (closed world), its default and its declaration."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....linking.flowkeys import VALUE_CALLS
from ....model import (
    CallArguments,
    Expr,
    Int,
    Star,
    Str,
    SymbolKind,
)
from ..resolver import Instance, SymbolRef
from . import containers, declared, names
from .budget import MAX_CANDIDATES, MAX_LEVEL, Where
from .expressions import argument_for
from .records import (
    Bound,
    Container,
    Generator,
    Value,
    Values,
    externals_only,
    union,
)

if TYPE_CHECKING:
    from .engine import ValueFlowAnalysis

__all__: list[str] = []  # functions over the analysis (`engine.py`), called as `module._f(self, …)`

_MAX_CALLERS = 40  # calls of one function followed for the values of its parameters
_MAX_WIDE_CALLERS = 128  # the same, when only possible targets are looked for (`wide_callables`)


def _parameter(self: ValueFlowAnalysis, function: str, name: str) -> Values:
    # callers are not followed this deep, but what the parameter is declared as (a
    # method's receiver, an annotation) needs none
    deep = self._level >= MAX_LEVEL
    compute = declared._declared_only if deep else _parameter_values
    return self._memo(("param", function, name), lambda: compute(self, function, name))


def _parameter_values(self: ValueFlowAnalysis, function: str, name: str) -> Values:
    symbol = self.lookups.signature(function)
    if symbol is None:
        return Values.unknown()
    declared_here = declared._declared_parameter(self, function, name)
    # a callback protocol says "something callable so", which a class or a function is
    # as well as an instance: the callers say which, where they do
    callback = declared_here is not None and declared._callback_protocols_only(self, declared_here)
    runtime_only = self._uncast and externals_only(declared_here or Values())
    # seen as it runs, `stream: AsyncGenerator[bytes, None]` is also what the callers
    # pass that implements it (`request.stream()`, a generator function's object)
    protocol = (
        declared_here
        if self._uncast
        and declared_here is not None
        and not runtime_only
        and declared._declared_protocol(self, function, name)
        else None
    )
    if declared_here is not None and not runtime_only and not callback and protocol is None:
        return declared_here
    # (seen as it runs, `stream: BinaryIO` holds what the callers pass, where known)
    position = symbol.parameters.index(name)
    module = names._module(self, function)
    declared_as = declared._declared(self, self.lookups.flows(function, ("<declared>", name)))
    why = f"the parameter `{name}` of `{function}`"
    result = Values()
    defaults = self.lookups.flows(function, ("<default>", name))
    default = Values()
    for flow in defaults:
        default.add(self._eval(flow.value, names._where_of_default(self, symbol, flow)))
    self._level += 1
    try:
        callers = _callers(self, function, symbol.name)
        if callers is None:
            if callback:  # too many to say: unknown, for a wide evaluation to look at
                return Values.unknown()
            if protocol is not None:
                return _implementing(protocol, default)
            return declared._declared_union(self, function, name) or Values.unknown()
        for site, module, offset in callers:
            passed = _passed(
                self, symbol.parameters, symbol.parameter_kinds, position, site, module, offset
            )
            if passed is None:
                if defaults:
                    result.add(default, why)
                continue
            came = passed.passed_to(frozenset({(function, site.scope, site.arguments)}))
            result.add(came, f"{why} (passed by `{site.scope}`)")
    finally:
        self._level -= 1
    if not callers and defaults:
        result.add(default, why)
    if protocol is not None and not (result.complete and result.found):
        return _implementing(protocol, result)
    if declared_here is not None and not result.found:
        return declared_here
    if not result.complete or not result.found:  # unknown, or only callers outside
        union = declared._declared_union(self, function, name)
        if union is not None:
            return union
    return declared._upcast(self, result, declared_as)


def _callers(
    self: ValueFlowAnalysis, function: str, name: str
) -> list[tuple[CallArguments, str, int]] | None:
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
    if len(candidates) > MAX_CANDIDATES:
        return None
    found: list[tuple[CallArguments, str, int]] = []
    for module, site in candidates:
        where = Where(site.scope, module, site.at, site.block)
        callee = self._eval(site.callee, where)
        for value, _ in callee:
            offset = _offset(self, value, function, symbol.decorators)
            if offset is not None:
                found.append((site, module, offset))
                break
    limit = _MAX_WIDE_CALLERS if self._wide else _MAX_CALLERS
    return found if len(found) <= limit else None


def _offset(
    self: ValueFlowAnalysis, value: Value, function: str, decorators: tuple[str, ...]
) -> int | None:
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
    self: ValueFlowAnalysis,
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
    where = Where(site.scope, module, site.at, site.block)
    if kind == "*":
        extra = tuple(v for k, v in site.arguments if isinstance(k, int) and k >= position - offset)
        stars = tuple(Star(v) for k, v in site.arguments if k == "*")
        return Values.of(Container("tuple", extra + stars, site.scope, module, site.at, site.block))
    if kind == "d":
        named = {p for p, k in zip(parameters, kinds, strict=False) if k in "pk"}
        pairs: tuple[tuple[Expr | None, Expr], ...] = tuple(
            (Str(k), v)
            for k, v in site.arguments
            if isinstance(k, str) and k not in ("*", "**") and k not in named
        )
        pairs += tuple((None, v) for k, v in site.arguments if k == "**")
        return Values.of(Container("dict", pairs, site.scope, module, site.at, site.block))
    passed = argument_for(site.arguments, name, kind, position - offset)
    if passed is not None:
        return self._eval(passed, where)
    # not passed by itself: maybe inside `*args` / `**kwargs` the call forwards
    spread: Values | None = None
    unpacked = [v for k, v in site.arguments if k == "*"]
    if kind in "po" and len(unpacked) == 1:
        before = sum(1 for k, _ in site.arguments if isinstance(k, int))
        index = position - offset - before
        if index >= 0:
            spread = _unpacked(self, self._eval(unpacked[0], where), Int(index))
    for value in (v for k, v in site.arguments if k == "**"):
        if kind in "pk":
            found = _unpacked(self, self._eval(value, where), Str(name), keyed=True)
            if found is not None:
                spread = found if spread is None else union((spread, found))
    return spread


def _unpacked(
    self: ValueFlowAnalysis, values: Values, key: Expr, *, keyed: bool = False
) -> Values | None:
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
                result.add(containers._element(self, value, key), why)
        elif not keyed and value.kind in ("tuple", "list"):
            result.add(containers._element(self, value, key), why)
        else:
            result.complete = False
    return result if result.found or not result.complete else None


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
