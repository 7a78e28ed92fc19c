"""What a method call's receiver is known to be, for dispatch to overrides (`dispatch.py`).

A call reaches only the overrides below the class its receiver is an instance of: in
`Square.describe`, `self.area()` resolves to `Shape.area` but cannot run `Circle.area`. And a
receiver constructed by its class's name is that class, no subclass: after
`response = PlainTextResponse(...)`, `response(...)` runs the `__call__` that
`PlainTextResponse` has, whatever overrides `Response.__call__` elsewhere (issue 50: such
dispatch edges are never right), unless a `__new__` of ours in its MRO, which may return an
instance of a subclass (a backend's), says otherwise.
"""

from __future__ import annotations

from ...model import Attribute, Call, CallSite, Dotted, Name, SymbolKind
from .dispatch import Receiver
from .resolver import Instance, Resolver, SymbolRef

__all__ = ["receiver_of"]

# names whose value is a class or an instance chosen by the caller, never a constructor's name
_VARIABLE_HEADS = frozenset({"self", "cls", "super()", "<expr>"})


def receiver_of(resolver: Resolver, site: CallSite, module: str, source: str) -> Receiver | None:
    """The receiver of the method a call site names (`x.m()`, `X(...).m()`, an instance
    called: `__call__`); None for a call through `super()` or of something else."""
    if site.callee[0] == "super()":
        return None  # runs the method it names (`CallLinker.static_lines`)
    value = site.value
    if isinstance(value, Attribute):
        name, receiver = value.name, value.value
    elif isinstance(value, Call):
        name, receiver = "__call__", value
    elif value is not None:
        return None
    elif site.receiver_call is not None:
        name, receiver = site.callee[-1], Call(Name(site.receiver_call), ())
        if len(site.callee) > 1:
            receiver = Name(())  # an attribute of a result: nothing known
    elif len(site.callee) > 1:
        name, receiver = site.callee[-1], Name(site.callee[:-1])
    else:
        name, receiver = "__call__", Name(site.callee)
    constructed = _constructed(resolver, site, receiver, module)
    if constructed is not None:
        return Receiver(source, site.line, name, constructed, exact=True)
    if not isinstance(receiver, Name) or not receiver.dotted:
        return Receiver(source, site.line, name, None)
    head = resolver.resolve_dotted(site.scope, receiver.dotted, module, site.line)
    if isinstance(head, SymbolRef) and receiver.dotted == site.callee:
        return None  # a function or a class called by its name: no instance's `__call__`
    known = head.class_name if isinstance(head, Instance) else None
    return Receiver(source, site.line, name, known)


def _constructed(resolver: Resolver, site: CallSite, receiver: object, module: str) -> str | None:
    """The class a receiver is an instance of when it was constructed by that class's name:
    `X(...)` itself, or a local variable every binding of which is `X(...)`."""
    if isinstance(receiver, Call):
        if not isinstance(receiver.callee, Name):
            return None
        return _class_named(resolver, site.scope, receiver.callee.dotted, module, site.line)
    if not isinstance(receiver, Name) or len(receiver.dotted) != 1:
        return None
    variable = receiver.dotted[0]
    if variable in _VARIABLE_HEADS or resolver.is_parameter(site.scope, variable):
        return None
    if resolver.binding_scope(site.scope, variable, module) != site.scope:
        return None  # a global, or a variable of an enclosing function
    bindings = resolver.lookups.index.scope_bindings.get(site.scope, {}).get((variable,))
    if not bindings:
        return None
    classes = {
        _class_named(resolver, site.scope, b.value, module, b.line) if b.kind == "call" else None
        for b in bindings
    }
    return classes.pop() if len(classes) == 1 else None  # (`{None}` pops None)


def _class_named(
    resolver: Resolver, scope: str, dotted: Dotted, module: str, line: int
) -> str | None:
    """The class of ours `dotted` names by itself (`PlainTextResponse`, `responses.Plain`),
    through a global name: not `cls`, a parameter, a local variable or anything inferred,
    which may hold a subclass."""
    if not dotted or dotted[0] in _VARIABLE_HEADS:
        return None
    if resolver.binding_scope(scope, dotted[0], module) is not None:
        return None
    target = resolver.resolve_dotted(scope, dotted, module, line)
    if not isinstance(target, SymbolRef) or target.inferred:
        return None
    symbol = resolver.lookups.symbol(target.qualified_name)
    if symbol is None or symbol.kind != SymbolKind.CLASS:
        return None
    if any(resolver.lookups.members(cls, "__new__") for cls in resolver.mro(symbol.qualified_name)):
        return None  # a `__new__` of ours may return an instance of a subclass
    return symbol.qualified_name
