"""Calls in Python value flow: what a call returns (a function's returns, read with the
call's own arguments where they mention its parameters) and what calling a value runs."""

from __future__ import annotations

from collections import Counter, OrderedDict, defaultdict, deque
from typing import TYPE_CHECKING

from ....linking.flowkeys import mentions
from ....model import (
    Arguments,
    At,
    Block,
    Call,
    Definition,
    Expr,
    InstanceOf,
    Symbol,
    SymbolKind,
)
from ..resolver import External, Instance, SymbolRef, Target, is_type_variable
from . import attributes, containers, declared, names, parameters
from .budget import Where
from .expressions import Placed, argument_for, of_anything, substituted
from .reaching import reaching
from .records import (
    Bound,
    Container,
    Generator,
    Inert,
    Lambda,
    Partial,
    Value,
    Values,
    View,
    chain,
)
from .stdlib import special_call

if TYPE_CHECKING:
    from .engine import ValueFlowAnalysis

__all__: list[str] = []  # functions over the analysis (`engine.py`), called as `module._f(self, …)`

# each kind of container value: its built-in type, then the subclasses made as that kind
_BUILTIN_CONTAINERS: dict[str, tuple[type, ...]] = {
    "list": (list, deque),
    "dict": (dict, defaultdict, OrderedDict, Counter),
    "set": (set,),
}


def _call(
    self: ValueFlowAnalysis,
    callee: Expr,
    arguments: Arguments,
    where: Where,
) -> Values:
    special = special_call(self, callee, arguments, where)
    if special is not None:
        return special
    return _call_result(self, self._eval(callee, where), arguments, where)


def _dict_of(self: ValueFlowAnalysis, values: Values, where: Where) -> Values:
    """`dict(x)`: x itself for a dict; the dict whose items a list of pairs holds."""
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        if isinstance(value, Container) and value.kind == "dict":
            result.add(Values.of(value), why)
            continue
        if isinstance(value, Container):
            for item, _ in containers._container_items(self, value):
                if isinstance(item, View) and item.kind == "pair":
                    result.add(Values.of(item.container), why)
                else:
                    result.complete = False
            continue
        result.complete = False
    return result


def _call_result(
    self: ValueFlowAnalysis,
    callees: Values,
    arguments: Arguments,
    where: Where,
) -> Values:
    result = Values(complete=callees.complete, dynamic=callees.dynamic)
    for value, why in callees:
        returned = _result_of(self, value, arguments, where)
        # what calling a value the callers of some function passed returns came so too
        through = callees.callers_of.get(value, frozenset())
        made_by = callees.made_by.get(value)
        if made_by is not None:  # a method of an instance one known call made
            returned = returned.without_callers_of(made_by)
        result.add(returned.passed_to(through), why)
    return result


def _result_of(
    self: ValueFlowAnalysis,
    value: Value,
    arguments: Arguments,
    where: Where,
) -> Values:
    self._step()
    if isinstance(value, SymbolRef | Bound):
        symbol = self.lookups.symbol(value.qualified_name)
        if symbol is None:
            return Values.unknown()
        if symbol.kind == SymbolKind.CLASS:
            made = Values.of(Instance(symbol.qualified_name))
            init = self.resolver.constructor(symbol.qualified_name)
            return made.made((init, where.scope, arguments) if init else None, Instance)
        if isinstance(value, SymbolRef) and attributes._decorated_away(self, symbol.qualified_name):
            return Values()  # `f()` runs the wrapper the decorators put in f's place
        receiver = value.receiver if isinstance(value, Bound) else None
        if receiver is not None and self.resolver.returns_self(symbol.qualified_name):
            why = f"the return value of `{symbol.qualified_name}` (`Self`)"
            return Values.of(Instance(receiver), why)
        call = (symbol.qualified_name, where.scope, arguments)  # its values, not other calls'
        if arguments or _called_on(symbol, value) is not None:
            inlined = _passed_through(self, symbol, value, arguments, where)
            if inlined is not None:
                return inlined.without_callers_of(call).unmade()
        return _function_result(self, symbol.qualified_name).without_callers_of(call).unmade()
    if isinstance(value, External):
        if value.dotted[-1][:1].isupper():
            return Values.of(External(value.dotted, inferred=True))
        return Values.unknown()
    if isinstance(value, Lambda):
        return self._eval(value.body, Where(value.scope, value.module, 0, ()))
    if isinstance(value, Partial):
        function = self._eval(
            value.function, Where(value.scope, value.module, value.at, value.block)
        )
        return _call_result(self, function, arguments if value.keywords_only else (), where)
    if isinstance(value, Instance):
        method = self.special_method(value, "__call__")
        return _function_result(self, method) if method else Values.unknown()
    if isinstance(value, View) and value.kind.startswith("method:"):
        return containers._container_method(self, value.container, value.kind[7:], arguments, where)
    if isinstance(value, Inert):
        return Values()
    return Values.unknown()


def _passed_through(
    self: ValueFlowAnalysis,
    symbol: Symbol,
    callee: SymbolRef | Bound,
    arguments: Arguments,
    where: Where,
) -> Values | None:
    """The result of one call of a function whose returns mention its parameters as it
    received them (`merge_setting(request_setting, session_setting)` returns either;
    `pnt_func(f)` returns `double_output(f, …)`, which returns `f`): those returns read
    with the arguments of this call in place of the parameters, so a call's result is
    what that call passed, not what every call passes. None (the result of every call
    alike) where no return mentions such a parameter, or where the function declares
    its result, yields, or this call unpacks arguments."""
    function = symbol.qualified_name
    if _declares_result(self, symbol) or self.resolver.returns_self(function):
        return None
    if any(k in ("*", "**") for k, _ in arguments):
        return None
    offset = parameters._offset(self, callee, function, symbol.decorators)
    if offset is None:
        return None
    if where.scope == function or where.scope.startswith(function + "."):
        return None  # a function calling itself: read once, not once per level
    receiver = _called_on(symbol, callee)
    if receiver is not None and self.lookups.flows(function, ("<shape>", "<return>")):
        receiver = None  # declared as a container (`-> list[str]`): that, whoever receives
    mentioned = _returned_parameters(self, symbol, 0 if receiver is not None else offset)
    if not any(mentioned):
        return None
    key = ("through", function, offset, arguments, where, receiver)
    return self._memo(
        key, lambda: _through(self, symbol, offset, mentioned, arguments, where, receiver)
    )


def _called_on(symbol: Symbol, callee: SymbolRef | Bound) -> str | None:
    """The class a method is called on where that is not the class defining it
    (`Sub.make()` of `Base.make`, `Sub().copy()` of `Base.copy`): its `cls`, or the class
    of its `self`, there; None otherwise."""
    if not isinstance(callee, Bound) or callee.receiver in (None, symbol.parent):
        return None
    if "staticmethod" in symbol.decorators or not symbol.parameters:
        return None
    if symbol.kind != SymbolKind.METHOD or symbol.parameter_kinds[:1] not in ("", "p", "o"):
        return None
    return callee.receiver


def _declares_result(self: ValueFlowAnalysis, symbol: Symbol) -> bool:
    """Whether a function's declared result says what its calls return: not a type variable
    (`-> T`, `-> Type[T]`), which says a call returns what it was passed (rich's
    `do_replace(cls: Type[T]) -> Type[T]` returns the class it decorates)."""
    declared_type = self.lookups.declared_return(symbol)
    if declared_type is None:
        return False
    dotted = declared_type[1:] if declared_type[0] == "type[]" else declared_type
    if not dotted:
        return True
    module = names._module(self, symbol.qualified_name)
    return not is_type_variable(self.resolver.resolve_dotted(symbol.parent, dotted, module))


def _returned_parameters(
    self: ValueFlowAnalysis, symbol: Symbol, offset: int
) -> list[frozenset[str]]:
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
    self: ValueFlowAnalysis,
    symbol: Symbol,
    offset: int,
    mentioned: list[frozenset[str]],
    arguments: Arguments,
    where: Where,
    receiver: str | None = None,
) -> Values:
    """`_passed_through`'s result: each return with the arguments passed to the
    parameters it mentions (their defaults where not passed) in their place, and a
    classmethod's `cls` the class it was called on (`receiver`)."""
    function, lookups = symbol.qualified_name, self.lookups
    kinds = symbol.parameter_kinds
    bound: dict[str, Expr] = {}
    if receiver is not None:
        first = symbol.parameters[0]
        received: Expr = Definition(receiver)
        if "classmethod" not in symbol.decorators:
            received = InstanceOf(received)
        bound[first] = Placed(where, received, f"`{first}`, of the class `{receiver}`")
    given: dict[str, Placed] = {}
    for position, name in enumerate(symbol.parameters):
        if position < offset:  # the receiver: bound above, or not read
            continue
        kind = kinds[position] if position < len(kinds) else "p"
        passed = argument_for(arguments, name, kind, position - offset)
        if passed is not None:
            bound[name] = given[name] = Placed(where, passed, f"the argument `{name}`")
            continue
        defaults = lookups.flows(function, ("<default>", name))
        if len(defaults) == 1:
            place = names._where_of_default(self, symbol, defaults[0])
            bound[name] = Placed(place, defaults[0].value, f"the default of `{name}`")
    result = Values()
    why = f"the return value of `{function}`"
    returns = lookups.flows(function, ("<return>",))
    skipped = _arms_not_taken(self, function, given)
    for flow, said in zip(returns, mentioned, strict=True):
        if any(flow.at >= at and flow.block[: len(block)] == block for block, at in skipped):
            continue
        value = substituted(flow.value, {n: bound[n] for n in said if n in bound})
        result.add(self._eval(value, names._where_of(self, flow)), why)
    return result


def _arms_not_taken(
    self: ValueFlowAnalysis, function: str, given: dict[str, Placed]
) -> list[tuple[Block, int]]:
    """Where the code of `function` that runs only when a parameter is None begins (its
    block, and the position in it), for each parameter this call passes a value that is
    never None (`@auto` over a class: `auto(cls=None)`'s `if cls is None: return
    partial(...)` is the decorator factory's arm, not this call's)."""
    arms: list[tuple[Block, int]] = []
    for name, placed in given.items():
        flows = self.lookups.flows(function, ("<is None>", name))
        if not flows:
            continue
        passed = self._eval(placed.expr, placed.where)
        if passed.found and passed.complete and not any(isinstance(v, Inert) for v, _ in passed):
            arms += [(flow.block, flow.at) for flow in flows]
    return arms


def _function_result(self: ValueFlowAnalysis, function: str) -> Values:
    return self._memo(("result", function), lambda: _function_result_uncached(self, function))


def _function_result_uncached(self: ValueFlowAnalysis, function: str) -> Values:
    symbol = self.lookups.symbol(function)
    if symbol is None:
        return Values.unknown()
    why = f"the return value of `{function}`"
    module = names._module(self, function)
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
            result = self.resolver._call_result(SymbolRef(function))
            # `-> T` with a TypeVar (`def __enter__(self: T) -> T`) says nothing: the
            # returned values do
            if result is not None and not is_type_variable(result):
                return Values.of(result, why)
    returns = self.lookups.flows(function, ("<return>",))
    # a declared container wins, unless it leaves parts unsaid that the returned values
    # say (`-> tuple[dict[str, str], SyncByteStream | AsyncByteStream]`)
    shape = declared._shape(self, function, "<return>", why, whole=bool(returns))
    if shape is not None and not (returns and _elements_any(self, function)):
        return shape
    if not returns:
        return Values.of(Inert())
    declared_as = declared._declared(self, self.lookups.flows(function, ("<declared>", "<return>")))
    returned = declared._upcast(self, names._flow_values(self, returns, None, why), declared_as)
    # `-> Iterator[Any]` says less than `return iter((self.cls, self.args))`, when that
    # is known (starlette's `Middleware.__iter__`, unpacked into `cls, args, kwargs`)
    if shape is not None and not (returned.complete and returned.found):
        return shape
    return returned


def _elements_any(self: ValueFlowAnalysis, function: str) -> bool:
    """Whether a function's declared result is a container of anything (`list[Any]`,
    `Iterator[Any]`, `dict[str, object]`)."""
    flows = self.lookups.flows(function, ("<shape>", "<return>"))
    return bool(flows) and of_anything(flows[0].value)


def _runs(
    self: ValueFlowAnalysis, value: Value, why: str, depth: int
) -> tuple[dict[Target, str], bool]:
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
            value.function, Where(value.scope, value.module, value.at, value.block)
        )
        return _runs_all(self, function, chain(why, "`functools.partial`"), depth + 1)
    if isinstance(value, Lambda) and depth < 4:
        if _foreign_lambda(self, value):
            return {}, True
        if not (isinstance(value.body, At) and isinstance(value.body.expr, Call)):
            return {}, True
        where = Where(value.scope, value.module, value.body.offset, value.body.block)
        callee = self._eval(value.body.expr.callee, where)
        return _runs_all(self, callee, chain(why, f"a lambda (line {value.line})"), depth + 1)
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


def _foreign_lambda(self: ValueFlowAnalysis, value: Lambda) -> bool:
    """Whether a lambda called from `self._caller` is code of another function: its body's
    calls are edges of the function that holds it (where the tracer, and jedi, place them),
    so a call of it elsewhere runs none of its own (pluggy's `Result.from_call(lambda:
    hook(...))` does not call `hook`; `traced_hookexec`, which holds the lambda, does). A
    lambda held by a module or a class body stands in for a function without a node: calls of
    it still reach what it calls."""
    if self._caller is None or value.scope == self._caller:
        return False
    owner = self.lookups.symbol(value.scope)
    return owner is not None and owner.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)


def _runs_all(
    self: ValueFlowAnalysis, values: Values, why: str, depth: int
) -> tuple[dict[Target, str], bool]:
    runs: dict[Target, str] = {}
    complete = values.complete
    for value, reason in values:
        found, known = _runs(self, value, chain(why, reason), depth)
        complete = complete and known
        for target, text in found.items():
            runs.setdefault(target, text)
    return runs, complete
