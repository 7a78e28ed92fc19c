"""Names for Python value flow: a variable's values where it is used (its reaching
assignments, definitions and imports), through enclosing functions to the module and its
star imports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....model import (
    ArmEnd,
    Call,
    ImportStatement,
    Symbol,
    SymbolKind,
    ValueFlow,
)
from ..resolver import External, SymbolRef
from . import declared, parameters
from .budget import END, Where
from .expressions import is_decoration, render
from .reaching import is_join, reaching
from .records import (
    Values,
    homed,
    of_target,
)

if TYPE_CHECKING:
    from .engine import ValueFlowAnalysis

__all__: list[str] = []  # functions over the analysis (`engine.py`), called as `module._f(self, …)`

_UNBOUND_MARK = "<unbound>"  # a memoised "not bound in this scope" (`_closure`)
_UNBOUND = Values({}, True, _UNBOUND_MARK)


def _name(self: ValueFlowAnalysis, name: str, where: Where) -> Values:
    key = ("name", name, where)
    return self._memo(key, lambda: _name_uncached(self, name, where))


def _name_uncached(self: ValueFlowAnalysis, name: str, where: Where) -> Values:
    lookups, module = self.lookups, where.module
    current: str | None = where.scope
    first = True
    while current is not None and current != module:
        symbol = lookups.symbol(current)
        if symbol is None:
            break
        if symbol.kind != SymbolKind.CLASS or first:
            if first:
                found = _local(self, symbol.qualified_name, name, where)
            else:
                found = _closure(self, symbol.qualified_name, name)
            if found is not None:
                return found
        first = False
        current = symbol.parent
    if where.scope == module:
        return _module_name(self, module, name, where)
    return _global(self, module, name)


def _closure(self: ValueFlowAnalysis, scope: str, name: str) -> Values | None:
    """`name` of an enclosing function, seen from a nested one (the same at every use)."""
    key = ("closure", scope, name)
    found = self._memo(key, lambda: _local(self, scope, name, None) or _UNBOUND.copy())
    return None if found.dynamic == _UNBOUND_MARK else found


def _global(self: ValueFlowAnalysis, module: str, name: str) -> Values:
    """A module's global as its functions see it (the same at every use)."""
    # modules import names from each other in cycles (numpy, scipy): the memo's cycle
    # guard makes one met again while it is evaluated unknown
    return self._memo(("global", module, name), lambda: _module_global(self, module, name, None))


def _local(self: ValueFlowAnalysis, scope: str, name: str, where: Where | None) -> Values | None:
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
    module = _module(self, scope)
    info = self.index.modules.get(module)
    is_package = info.parsed.is_package if info is not None else False
    for qualified in defined:
        result.add(Values.of(SymbolRef(qualified)))
    for statement in imports:
        result.add(_imported(self, statement, module, is_package))
    if defined or imports:
        if flows:  # a def and assignments of one name: all of them
            every = [flow for flow in flows if not is_join(flow)]
            result.add(_flow_values(self, every, None, f"the variable `{name}`"))
        return result
    if not flows and not is_parameter:
        return Values.unknown()  # bound by something value flow does not record
    if where is not None and where.window is not None:
        start, end, arm = where.window
        flows = [f for f in flows if f.at < start or (f.at <= end and f.block[: len(arm)] == arm)]
    reached, entry = reaching(flows, (where.at, where.block) if where else None)
    result.add(_flow_values(self, reached, (scope, name), f"the variable `{name}`"))
    if entry and is_parameter:
        result.add(parameters._parameter(self, symbol.qualified_name, name))
    elif not result.complete:  # `provider: Router | Starlette | None = scope.get(…)`
        return declared._declared_union(self, scope, name, "variable") or result
    return result


def _module_name(self: ValueFlowAnalysis, module: str, name: str, where: Where | None) -> Values:
    """A module's global `name`: its definitions, imports and assignments (all of them
    for a use inside a function, which runs after the module ran)."""
    if where is None:
        return _global(self, module, name)  # another module's, through an import
    return _module_global(self, module, name, where)


def _module_global(self: ValueFlowAnalysis, module: str, name: str, where: Where | None) -> Values:
    lookups, resolver = self.lookups, self.resolver
    info = lookups.module(module)
    if info is None:
        return Values.unknown()
    result = Values()
    for qualified in info.defs.get(name, []):
        result.add(Values.of(SymbolRef(qualified)))
    for statement in info.imports.get(name, []):
        result.add(_imported(self, statement, module, info.parsed.is_package))
    flows = lookups.flows(module, (name,))
    extra = [f for f in lookups.module_flows(module, name) if len(f.target) == 1 and not is_join(f)]
    if flows or extra:
        reached, _ = reaching(flows, (where.at, where.block) if where else (END, ()))
        why = f"the variable `{name}`" if where is not None else f"`{module}.{name}`"
        result.add(_flow_values(self, reached + extra, (module, name), why))
    if result.found or not result.complete:
        return result
    for star in info.star_imports:
        source = resolver.absolute_module(star, module, info.parsed.is_package)
        if lookups.has_module(source):
            nested = _module_name(self, source, name, None)
            if nested.found:
                return nested
        elif star.level == 0:
            return Values.unknown()  # maybe from an external star import
    if name in info.parsed.module_names:
        return Values.unknown()
    if name in _builtin_names():
        return Values.of(External(("<builtin>", name)))
    return Values.unknown()


def _imported(
    self: ValueFlowAnalysis, statement: ImportStatement, module: str, is_package: bool
) -> Values:
    """What an import binds: a module, a definition, or a variable of an internal module
    (which the resolver does not follow: `from .tables import HANDLERS`)."""
    resolver = self.resolver
    target = resolver.import_target(statement, module, is_package)
    if target is not None or statement.name is None:
        return of_target(target)
    source = resolver.absolute_module(statement, module, is_package)
    if not self.lookups.has_module(source):
        return Values.unknown()
    return _module_name(self, source, statement.name, None).because(f"`{source}.{statement.name}`")


def _arm_end(self: ValueFlowAnalysis, expr: ArmEnd, where: Where) -> Values:
    """What `name` holds at the end of one arm of the `if` spanning bytes start..end (the
    assignments in that arm, or before the `if` where none in the arm dominates its end)."""
    start, end, arm, name = expr.start, expr.end, expr.arm, expr.name
    window = Where(where.scope, where.module, end + 1, arm, (start, end, arm))
    return _name(self, name, window)


def _flow_values(
    self: ValueFlowAnalysis, flows: list[ValueFlow], home: tuple[str, ...] | None, why: str
) -> Values:
    result = Values()
    for flow in flows:
        if flow.target[0] == "<default>":
            continue
        values = self._eval(flow.value, _where_of(self, flow))
        if isinstance(flow.value, Call) and is_decoration(flow.value):
            # an unknown decorator leaves the definition callable by its own name; what
            # only other calls passed into some function's parameters is theirs, not this
            # decoration's (`self._cls` of every `_ClassBuilder(cls)`)
            mine = {v: r for v, r in values.found.items() if v not in values.callers_of}
            values = Values(mine, True)
            why_here = f"the decorator `{render(flow.value.callee)}`"
        else:
            why_here = why
        if home is not None:
            values = homed(values, home)
        result.add(values, why_here)
    return result


def _where_of(self: ValueFlowAnalysis, flow: ValueFlow) -> Where:
    return Where(flow.scope, _module(self, flow.scope), flow.at, flow.block)


def _where_of_default(self: ValueFlowAnalysis, function: Symbol, flow: ValueFlow) -> Where:
    """Where a parameter's default is evaluated: in the scope around the function."""
    parent = function.parent
    return Where(parent, _module(self, parent), flow.at, flow.block)


def _module(self: ValueFlowAnalysis, scope: str) -> str:
    return self.index.symbol_module.get(scope, scope)


def _builtin_names() -> frozenset[str]:
    from ..resolver import BUILTIN_NAMES

    return BUILTIN_NAMES
