"""Built-ins and decorators whose result Python value flow knows, as a table (jedi's
`plugins/stdlib.py`): a call of one of them reads its arguments instead of following the
callee. Each handler answers `Values`, or None to leave the call to ordinary evaluation.

Built-ins are matched on their bare name (`list`, `zip`), everything else on its dotted
name (`functools.partial`); a name may have several handlers, tried in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from ....model import CONST, Arguments, Call, Display, Expr, Iterated, Name, Star, Str, Subscript
from ..resolver import Instance, SymbolRef
from . import attributes, containers, declared, results
from .budget import Where
from .expressions import render
from .records import (
    DYNAMIC,
    EMPTY_CONTAINERS,
    IDENTITY,
    IDENTITY_FACTORIES,
    ITERATING,
    Container,
    Partial,
    Super,
    Values,
    externals,
)

if TYPE_CHECKING:
    from .engine import ValueFlowAnalysis

__all__ = ["special_call"]

Handler = Callable[["ValueFlowAnalysis", Arguments, "Expr | None", Where], "Values | None"]
"""(analysis, the call's arguments, its first positional one, where) -> its values."""

_CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
_TYPE_OF = frozenset({"typing.Type", "typing_extensions.Type", "<builtin>.type"})
_SUPER = Name(("super",))


def special_call(
    flow: ValueFlowAnalysis, callee: Expr, arguments: Arguments, where: Where
) -> Values | None:
    """The values of a call of a built-in or decorator this table knows; None otherwise."""
    if callee == _SUPER and not arguments:
        owner = flow.resolver._super(where.scope)
        return Values.of(Super(owner)) if owner is not None else Values.unknown()
    if isinstance(callee, Call):  # functools.wraps(f)(wrapper), lru_cache(maxsize=1)(f), ...
        factory = externals(flow._eval(callee.callee, where))
        if factory & IDENTITY_FACTORIES and arguments and factory != {"functools.partial"}:
            return flow._eval(arguments[0][1], where)
        return None
    if not isinstance(callee, Name):
        return None
    heads = flow._eval(callee, where)
    names = externals(heads)
    if not names or len(heads.found) != 1:
        return None
    (external,) = names
    first = next((v for k, v in arguments if k == 0), None)
    for handler in _BY_NAME.get(external, ()):
        found = handler(flow, arguments, first, where)
        if found is not None:
            return found
    for handler in _BUILTINS.get(external.removeprefix("<builtin>."), ()):
        found = handler(flow, arguments, first, where)
        if found is not None:
            return found
    return None


# -- handlers ------------------------------------------------------------------------------------
def _cast(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """`cast(T, v)`: an instance of T (v's own values in `runtime_view`)."""
    if first is None or len(arguments) != 2:
        return None
    if flow._uncast:
        own = flow._eval(arguments[1][1], where)
        if own.found:
            return own
    named = repr(first.text) if isinstance(first, Str) else render(first)
    if declared._mentions_type_variable(flow, first, where):
        # `cast(F, v)`, `cast(type[F], v)`: a type variable names no class, v's own values stand
        return flow._eval(arguments[1][1], where)
    if isinstance(first, Subscript) and externals(flow._eval(first.value, where)) & _TYPE_OF:
        # `cast(type[Foo], v)`: the class itself, not an instance of it
        return flow._eval(first.key, where).because(f"`cast({named}, ...)`")
    return declared._instances(flow, first, where).because(f"`cast({named}, ...)`")


def _identity(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """A decorator that returns what it is given (`staticmethod`, `functools.cache`)."""
    return flow._eval(first, where) if first is not None else None


def _partial(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    if first is None:
        return None
    # (key 0 is the function; "**" binds keywords, "*" positions)
    keywords_only = all(key == 0 or (isinstance(key, str) and key != "*") for key, _ in arguments)
    partial = Partial(first, where.scope, where.module, where.at, where.block, keywords_only)
    return Values.of(partial)


def _type(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """`type(x)`: the class of each instance x holds."""
    if first is None or len(arguments) != 1:
        return None
    result = Values()
    for value, why in flow._eval(first, where):
        if isinstance(value, Instance):
            result.add(Values.of(SymbolRef(value.class_name), why), f"`type({render(first)})`")
        else:
            result.complete = False
    return result


def _getattr(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """`getattr(x, "name"[, default])`; a name that is not a literal is dynamic."""
    if first is None or len(arguments) < 2:
        return None
    attribute = arguments[1][1]
    if not isinstance(attribute, Str):
        result = Values.unknown("getattr")
    else:
        result = attributes._attribute(flow, flow._eval(first, where), attribute.text, where)
    if len(arguments) > 2:  # the default is one of the values, whatever the name
        result.add(flow._eval(arguments[2][1], where))
    return result


def _unpacked_display(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """`iter((a, b))` yields a, then b: the tuple display, unpacked in place."""
    if not (isinstance(first, Display) and first.kind == "tuple"):
        return None
    return flow._eval(first, where)


def _copied(kind: Literal["list", "set"], *, enumerated: bool = False) -> Handler:
    """`list(xs)`, `sorted(xs)`, `set(xs)`, `enumerate(xs)`: a new container of `kind` with
    the elements of xs (`(index, element)` pairs for `enumerate`)."""

    def handler(
        flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
    ) -> Values | None:
        if first is None:
            return None
        if enumerated:
            element: Expr = Display("tuple", (CONST, Iterated(first)))
            body: tuple[Expr, ...] = (Star(Display("list", (element,))),)
        else:
            body = (Star(first),)
        return Values.of(Container(kind, body, where.scope, where.module, where.at, where.block))

    return handler


def _zip(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """`for ty, x in zip(types, values)`: tuples of one element of each iterable."""
    if first is None:
        return None
    iterables = tuple(Iterated(value) for key, value in arguments if isinstance(key, int))
    pairs: tuple[Expr, ...] = (Star(Display("list", (Display("tuple", iterables),))),)
    return Values.of(Container("list", pairs, where.scope, where.module, where.at, where.block))


def _next(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """`next(it[, default])`: one element of it, or the default."""
    if first is None:
        return None
    result = containers._items(flow, flow._eval(first, where), where)
    if len(arguments) > 1:
        result.add(flow._eval(arguments[1][1], where))
    return result


def _dict(
    flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
) -> Values | None:
    """`dict(x)`: x itself for a dict, the dict a list of pairs makes."""
    if first is None or len(arguments) != 1:
        return None
    return results._dict_of(flow, flow._eval(first, where), where)


def _empty(kind: str, *, factory: bool = False) -> Handler:
    """`dict()`, `list()`, `OrderedDict(a=f)`: an empty container of `kind` (a dict: with its
    keyword arguments); `factory`: its one argument makes missing values (`defaultdict(list)`)
    and is no element."""

    def handler(
        flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
    ) -> Values | None:
        if first is not None and not (factory and len(arguments) == 1):
            return None
        pairs = tuple((Str(k), v) for k, v in arguments if isinstance(k, str) and k[0] != "*")
        elements = pairs if kind == "dict" else ()
        return Values.of(
            Container(kind, elements, where.scope, where.module, where.at, where.block)
        )

    return handler


def _dynamic(kind: str) -> Handler:
    """`eval`, `exec`, `importlib.import_module`: what they bind no static analysis follows."""

    def handler(
        flow: ValueFlowAnalysis, arguments: Arguments, first: Expr | None, where: Where
    ) -> Values | None:
        return Values.unknown(kind)

    return handler


def _table(*groups: dict[str, Handler]) -> dict[str, tuple[Handler, ...]]:
    """Handlers by name, those of one name in the order of `groups`."""
    table: dict[str, tuple[Handler, ...]] = {}
    for group in groups:
        for name, handler in group.items():
            table[name] = (*table.get(name, ()), handler)
    return table


_BY_NAME = _table(
    dict.fromkeys(_CASTS, _cast),
    dict.fromkeys(IDENTITY, _identity),
    {"functools.partial": _partial, "<builtin>.type": _type, "<builtin>.getattr": _getattr},
    {
        name: _empty(kind, factory=name == "collections.defaultdict")
        for name, kind in EMPTY_CONTAINERS.items()
    },
    {name: _dynamic(kind) for name, kind in DYNAMIC.items()},
)
_BUILTINS = _table(
    {"iter": _unpacked_display, "tuple": _unpacked_display},
    {
        name: _copied(
            "set" if name in ("set", "frozenset") else "list", enumerated=name == "enumerate"
        )
        for name in ITERATING
    },
    {"zip": _zip, "next": _next, "dict": _dict},
)
