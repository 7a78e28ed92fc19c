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

from collections.abc import Iterator
from contextlib import contextmanager

from ....model import (
    ArmEnd,
    At,
    Attribute,
    Awaited,
    Block,
    Call,
    CallArguments,
    Caught,
    Comprehension,
    Const,
    Definition,
    DictDisplay,
    Display,
    Entered,
    Expr,
    InstanceOf,
    Int,
    Iterated,
    LambdaExpr,
    Like,
    Name,
    OneOf,
    Sent,
    Str,
    Subscript,
    SymbolKind,
    Unlike,
)
from ..resolver import Instance, SymbolRef, Target
from . import attributes, containers, declared, names, results
from .budget import MAX_CALLEES, MAX_LEVEL, MAX_POSSIBLE_CALLEES, Budget, Cut, Where
from .expressions import Placed, render
from .records import (
    ARGUMENT_CALLERS,
    DYNAMIC,
    SPECIAL_CALLERS,
    Container,
    Inert,
    Lambda,
    SharedValues,
    Value,
    Values,
    union,
)  # fmt: skip

__all__ = [
    "ARGUMENT_CALLERS", "DYNAMIC", "MAX_CALLEES", "MAX_POSSIBLE_CALLEES", "SPECIAL_CALLERS",
    "SharedValues", "ValueFlowAnalysis", "Values",
]  # fmt: skip

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


class ValueFlowAnalysis(Budget):
    """Evaluates expressions for the files of one linking run (one per linked file, like
    `Resolver`, so what it consults is recorded for that file): the entry points, and the
    dispatch of an expression to the part that reads it."""

    # the parts of the analysis (names, declared, parameters, attributes, results, containers)
    # are functions over it in their own modules, called as `names._name(self, …)`: not bound
    # here as methods, which a class compiled by mypyc would keep as plain attributes (issue 56)

    # -- entry points ------------------------------------------------------------------------
    def evaluate(
        self, expr: Expr, scope: str, module: str, at: int, block: Block, *, shallow: bool = False
    ) -> Values:
        """The values of `expr` evaluated at a place; `shallow`: parameters' values are not
        looked for at their callers."""
        level = self._level
        if shallow:
            self._level = MAX_LEVEL
        try:
            return self._eval(expr, Where(scope, module, at, block))
        except Cut:
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
        self._allow(_MAX_OPERAND_STEPS)
        try:
            return self._eval(expr, Where(scope, module, at, block))
        except Cut:
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
        where = Where(scope, module, at, block)

        def chain() -> Values:
            values = Values.of(value)
            for name in names:
                values = attributes._attribute(self, values, name, where)
            return values

        return self._shallow(chain)

    def callables(
        self, values: Values, caller: str | None = None
    ) -> tuple[dict[Target, str], bool]:
        """What calling each value runs: functions, methods, constructors, externals; from the
        scope `caller` where it is known (a lambda of another function runs no edge of its)."""
        runs: dict[Target, str] = {}
        complete = values.complete
        outer, self._caller = self._caller, caller
        try:
            for value, why in values:
                found, known = results._runs(self, value, why, 0)
                complete = complete and known
                for target, reason in found.items():
                    runs.setdefault(target, reason)
        except Cut:
            return runs, False
        finally:
            self._caller = outer
        return runs, complete

    def wide_callables(
        self, expr: Expr, scope: str, module: str, at: int, block: Block
    ) -> tuple[dict[Target, str], bool]:
        """`callables` of a callee left unresolved, its parameters followed through up to
        `_MAX_WIDE_CALLERS` calls instead of `_MAX_CALLERS`: what it finds is only *possible*
        (each call runs one of the values), so it is kept apart from the certain answers (the
        cache keys say which mode computed them)."""
        wide, steps = self._wide, self._steps
        self._wide = True
        self._allow(_MAX_WIDE_STEPS)
        try:
            return self.callables(self.evaluate(expr, scope, module, at, block), scope)
        finally:
            self._wide, self._steps = wide, steps

    def call_result(self, values: Values, where: Where) -> Values:
        try:
            return results._call_result(self, values, (), where)
        except Cut:
            return Values.unknown()

    def decorator_values(self, qualified_name: str) -> Values | None:
        """What the name of a decorated definition holds after its decorators ran (None when
        it has none)."""
        flow = self.lookups.decoration(qualified_name)
        if flow is None:
            return None
        try:
            return names._flow_values(self, [flow], None, "")
        except Cut:
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
        return self._shallow(lambda: attributes._class_attribute(self, class_name, name))

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
    def _eval(self, expr: Expr, where: Where) -> Values:
        self._step()
        match expr:
            case Name(dotted):
                values = names._name(self, dotted[0], where)
                for attribute in dotted[1:]:
                    values = attributes._attribute(self, values, attribute, where)
                return values
            case Call(callee, arguments):
                return results._call(self, callee, arguments, where)
            case Attribute(value, name):
                return attributes._attribute(self, self._eval(value, where), name, where)
            case Const() | Str() | Int():
                return Values.of(Inert())
            case At(offset, block, inner):
                return self._eval(inner, Where(where.scope, where.module, offset, block))
            case Display(kind, elements):
                return Values.of(
                    Container(kind, elements, where.scope, where.module, where.at, where.block)
                )
            case DictDisplay(pairs):
                return Values.of(
                    Container("dict", pairs, where.scope, where.module, where.at, where.block)
                )
            case Subscript(value, key):
                return containers._subscript(self, self._eval(value, where), key, where)
            case Iterated(iterable):
                return containers._items(self, self._eval(iterable, where), where)
            case OneOf(options):
                return union(self._eval(part, where) for part in options)
            case Definition(qualified_name):
                return Values.of(SymbolRef(qualified_name))
            case Entered(manager):
                return containers._entered(self, self._eval(manager, where), where)
            case Caught(classes):
                return containers._raised(self, self._eval(classes, where), where)
            case InstanceOf(classes):
                return declared._instances(self, classes, where).because(
                    f"`isinstance(…, {render(classes)})`"
                )
            case Awaited(value):
                return self._eval(value, where)
            case Sent():
                return declared._sent(self, where.scope)
            case Unlike(value, classes):
                return declared._unlike(self, self._eval(value, where), self._eval(classes, where))
            case Like(value, classes):
                return declared._like(self, self._eval(value, where), classes, where)
            case Placed(place, inner, why):  # an argument in place of a parameter (`_through`)
                return self._eval(inner, place).because(why)
            case ArmEnd():
                return names._arm_end(self, expr, where)
            case LambdaExpr(line, params, body):
                return Values.of(Lambda(where.scope, where.module, line, params, body))
            case Comprehension(kind, element):  # a dict's element: (key, value)
                return Values.of(
                    Container(kind, (element,), where.scope, where.module, where.at, where.block)
                )
        return Values.unknown()
