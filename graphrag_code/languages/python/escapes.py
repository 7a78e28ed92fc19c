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

from ...linking.flowkeys import FLOWS_KEY, value_parts
from ...model import (
    CallArguments,
    Definition,
    Expr,
    Name,
    ParsedFile,
    Symbol,
    SymbolKind,
    ValueFlow,
)
from .resolver import Resolver, SymbolRef

__all__ = ["escapes_flow"]

_FUNCTIONS = frozenset({SymbolKind.FUNCTION, SymbolKind.METHOD})
_FOLLOWED = frozenset({SymbolKind.FUNCTION, SymbolKind.METHOD, SymbolKind.CLASS})


def escapes_flow(symbol: Symbol, module: str, resolver: Resolver) -> bool:
    """Whether value flow may lose a function as a value: True but for a function (not a
    method) that only its own module uses as a value (a nested one: its enclosing function),
    there only as a plain argument of a call the resolver resolves to an indexed function or
    class, or an instance attribute's value (never named: no value)."""
    lookups = resolver.lookups
    info = lookups.module(module)
    scopes = _scopes(symbol, info.parsed, resolver) if info is not None else None
    if info is None or scopes is None:
        return True
    parsed, name = info.parsed, symbol.name
    # what this answer read: the flows and calls that mention the name in each of those scopes
    lookups.modules_consulted.update(f"{FLOWS_KEY}{scope}/{name}" for scope in scopes)
    named = False
    for flow in parsed.flows:
        if flow.scope in scopes and name in _value_names(flow.value):
            if not _held(flow, name):
                return True
            named = True
    for call in parsed.passes:
        if call.scope in scopes and _passes(call, name, symbol.qualified_name):
            if _lost(call, name, symbol.qualified_name, module, resolver):
                return True
            named = True
    # never named here: a nested function is no value; a module's is one in another file
    return not named and symbol.parent == module


def _scopes(symbol: Symbol, parsed: ParsedFile, resolver: Resolver) -> set[str] | None:
    """The scopes whose uses of the function as a value are all there are: those of its
    enclosing function, or of its module where no other file uses its name as a value (the
    index counts files per name); None where they cannot be known."""
    if symbol.kind != SymbolKind.FUNCTION:
        return None
    if symbol.parent == parsed.module:
        if resolver.lookups.index.value_names.get(symbol.name, 0) > 1:
            return None  # another file uses the name as a value: imported and passed, perhaps
        return {parsed.module} | {s.qualified_name for s in parsed.symbols}
    enclosing = resolver.lookups.symbol(symbol.parent)
    if enclosing is None or enclosing.kind not in _FUNCTIONS:
        return None
    prefix = enclosing.qualified_name + "."
    return {enclosing.qualified_name} | {
        s.qualified_name for s in parsed.symbols if s.qualified_name.startswith(prefix)
    }


def _held(flow: ValueFlow, name: str) -> bool:
    """Whether a flow puts the function where value flow follows it: an instance attribute
    (`self.send = unattached_send`). Not a parameter's default (`send: Send = empty_send`):
    value flow leaves it out where a caller passes what it cannot follow."""
    return flow.value == Name((name,)) and len(flow.target) == 2 and flow.target[0] == "self"


def _passes(call: CallArguments, name: str, qualified: str) -> bool:
    """Whether a call passes the function, plainly or inside an expression."""
    return any(
        value == Definition(qualified) or name in _value_names(value) for _, value in call.arguments
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
    return {
        part.dotted[0] if isinstance(part, Name) else part.qualified_name.rpartition(".")[2]
        for part in value_parts(expr)
        if isinstance(part, Name | Definition)
    }
