"""Whether a nested function's value may reach a call of a callable type that value flow does
not follow (Python), for the `signature` tier (issue 50).

A function defined inside another is a value only where its enclosing function names it.
Passed there straight to a function or class the resolver names (starlette's inner ASGI app
in `wrap_app_handling_exceptions(app, request)`), it reaches that callee's parameter only,
and value flow follows the parameter to each call of it (an inferred or partial edge): no other
call of that type can hold it. Named in any other way (passed to a value,
`await self.app(scope, receive, _send)`; returned, stored, put in a container, decorated), it
may be wherever such a value goes, as the `signature` tier says.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...linking.flowkeys import FLOWS_KEY
from ...model import Call, CallArguments, Definition, Expr, Name, Symbol, SymbolKind, subexpressions
from .resolver import Resolver, SymbolRef

__all__ = ["escapes_flow"]

_FUNCTIONS = frozenset({SymbolKind.FUNCTION, SymbolKind.METHOD})
_FOLLOWED = frozenset({SymbolKind.FUNCTION, SymbolKind.METHOD, SymbolKind.CLASS})


def escapes_flow(symbol: Symbol, module: str, resolver: Resolver) -> bool:
    """Whether value flow may lose `symbol` as a value: True for any function not nested in
    another; for a nested one, whether its enclosing function names it other than as a plain
    positional or keyword argument of a call the resolver resolves to an indexed function or
    class (never named: no value at all)."""
    lookups = resolver.lookups
    enclosing = lookups.symbol(symbol.parent) if symbol.kind == SymbolKind.FUNCTION else None
    info = lookups.module(module)
    if enclosing is None or enclosing.kind not in _FUNCTIONS or info is None:
        return True
    parsed, name = info.parsed, symbol.name
    inside = {enclosing.qualified_name} | {
        s.qualified_name
        for s in parsed.symbols
        if s.qualified_name.startswith(enclosing.qualified_name + ".")
    }
    # what this answer read: the flows and calls that mention the name in each of those scopes
    lookups.modules_consulted.update(f"{FLOWS_KEY}{scope}/{name}" for scope in inside)
    for flow in parsed.flows:
        if flow.scope in inside and name in _value_names(flow.value):
            return True
    return any(
        _lost(call, name, symbol.qualified_name, module, resolver)
        for call in parsed.passes
        if call.scope in inside
    )


def _lost(call: CallArguments, name: str, qualified: str, module: str, resolver: Resolver) -> bool:
    """Whether a call passes the function where value flow does not follow it."""
    for key, value in call.arguments:
        if value == Name((name,)) and key not in ("*", "**"):
            if not _followed(call, module, resolver):
                return True
        elif value == Definition(qualified) or name in _value_names(value):
            return True  # decorated, or inside an expression (a container, a partial)
    return False


def _followed(call: CallArguments, module: str, resolver: Resolver) -> bool:
    """Whether the callee is an indexed function or class, whose parameters value flow
    follows from this call."""
    if not isinstance(call.callee, Name):
        return False
    target = resolver.resolve_dotted(call.scope, call.callee.dotted, module, call.line)
    if not isinstance(target, SymbolRef):
        return False
    found = resolver.lookups.symbol(target.qualified_name)
    return found is not None and found.kind in _FOLLOWED


def _value_names(expr: Expr) -> set[str]:
    """The heads of the names an expression uses as values (not those it only calls)."""
    return set(_heads(expr))


def _heads(expr: Expr) -> Iterator[str]:
    stack = [expr]
    while stack:
        item = stack.pop()
        if isinstance(item, Name):
            yield item.dotted[0]
        elif isinstance(item, Definition):
            yield item.qualified_name.rpartition(".")[2]
        elif isinstance(item, Call):
            if not isinstance(item.callee, Name):
                stack.append(item.callee)
            stack += [value for _, value in item.arguments]
        else:
            stack += subexpressions(item)
