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
from . import attributes, containers, declared, names, parameters, results
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

    # the parts of the analysis, functions over it bound here as its methods
    # -- names (names.py)
    _name = names._name
    _name_uncached = names._name_uncached
    _closure = names._closure
    _global = names._global
    _local = names._local
    _module_name = names._module_name
    _module_global = names._module_global
    _imported = names._imported
    _arm_end = names._arm_end
    _flow_values = names._flow_values
    _where_of = names._where_of
    _where_of_default = names._where_of_default
    _module = names._module
    # -- declared types, narrowing, casts (declared.py)
    _declared = declared._declared
    _shape = declared._shape
    _unlike = declared._unlike
    _like = declared._like
    _is_instance_of = declared._is_instance_of
    _class_names = declared._class_names
    _sent = declared._sent
    _is_class = declared._is_class
    _upcast = declared._upcast
    _declared_only = declared._declared_only
    _receiver = declared._receiver
    _declared_union = declared._declared_union
    _declared_member = declared._declared_member
    _declared_parameter = declared._declared_parameter
    _declared_protocol = declared._declared_protocol
    _names_a_type = declared._names_a_type
    _callback_protocols_only = declared._callback_protocols_only
    _is_callback_protocol = declared._is_callback_protocol
    _is_protocol = declared._is_protocol
    _instances = declared._instances
    _mentions_type_variable = declared._mentions_type_variable
    _is_type_variable = declared._is_type_variable
    # -- parameters, from their callers (parameters.py)
    _parameter = parameters._parameter
    _parameter_values = parameters._parameter_values
    _callers = parameters._callers
    _offset = parameters._offset
    _passed = parameters._passed
    _unpacked = parameters._unpacked
    # -- attributes (attributes.py)
    # not `_attribute`: mypyc would name its C field `__attribute`, a C compiler keyword
    _attribute_values = attributes._attribute
    _attribute_of = attributes._attribute_of
    _class_attribute = attributes._class_attribute
    _class_attribute_of = attributes._class_attribute_of
    _decorated_away = attributes._decorated_away
    _instance_attribute = attributes._instance_attribute
    _instance_attribute_of = attributes._instance_attribute_of
    _through_descriptors = attributes._through_descriptors
    _inherited_values = attributes._inherited_values
    _declared_field = attributes._declared_field
    _stored_outside = attributes._stored_outside
    _closed_class = attributes._closed_class
    _member_value = attributes._member_value
    # -- what calls return and run (results.py)
    _call = results._call
    _dict_of = results._dict_of
    _call_result = results._call_result
    _result_of = results._result_of
    _passed_through = results._passed_through
    _declares_result = results._declares_result
    _returned_parameters = results._returned_parameters
    _through = results._through
    _arms_not_taken = results._arms_not_taken
    _function_result = results._function_result
    _function_result_uncached = results._function_result_uncached
    _elements_any = results._elements_any
    _runs = results._runs
    _foreign_lambda = results._foreign_lambda
    _runs_all = results._runs_all
    # -- containers, iteration, subscripts (containers.py)
    _container_method = containers._container_method
    _container_where = containers._container_where
    _element = containers._element
    _element_of = containers._element_of
    _container_items = containers._container_items
    _container_items_of = containers._container_items_of
    _dict_values = containers._dict_values
    _stored = containers._stored
    _restores = containers._restores
    _additions = containers._additions
    _items = containers._items
    _view_items = containers._view_items
    _yields = containers._yields
    _subscript = containers._subscript
    _unpacked_instance = containers._unpacked_instance
    _entered = containers._entered
    _raised = containers._raised

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
                values = self._attribute_values(values, name, where)
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
                found, known = self._runs(value, why, 0)
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
            return self._call_result(values, (), where)
        except Cut:
            return Values.unknown()

    def decorator_values(self, qualified_name: str) -> Values | None:
        """What the name of a decorated definition holds after its decorators ran (None when
        it has none)."""
        flow = self.lookups.decoration(qualified_name)
        if flow is None:
            return None
        try:
            return self._flow_values([flow], None, "")
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
    def _eval(self, expr: Expr, where: Where) -> Values:
        self._step()
        match expr:
            case Name(dotted):
                values = self._name(dotted[0], where)
                for attribute in dotted[1:]:
                    values = self._attribute_values(values, attribute, where)
                return values
            case Call(callee, arguments):
                return self._call(callee, arguments, where)
            case Attribute(value, name):
                return self._attribute_values(self._eval(value, where), name, where)
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
                return self._subscript(self._eval(value, where), key, where)
            case Iterated(iterable):
                return self._items(self._eval(iterable, where), where)
            case OneOf(options):
                return union(self._eval(part, where) for part in options)
            case Definition(qualified_name):
                return Values.of(SymbolRef(qualified_name))
            case Entered(manager):
                return self._entered(self._eval(manager, where), where)
            case Caught(classes):
                return self._raised(self._eval(classes, where), where)
            case InstanceOf(classes):
                return self._instances(classes, where).because(
                    f"`isinstance(…, {render(classes)})`"
                )
            case Awaited(value):
                return self._eval(value, where)
            case Sent():
                return self._sent(where.scope)
            case Unlike(value, classes):
                return self._unlike(self._eval(value, where), self._eval(classes, where))
            case Like(value, classes):
                return self._like(self._eval(value, where), classes, where)
            case Placed(place, inner, why):  # an argument in place of a parameter (`_through`)
                return self._eval(inner, place).because(why)
            case ArmEnd():
                return self._arm_end(expr, where)
            case LambdaExpr(line, params, body):
                return Values.of(Lambda(where.scope, where.module, line, params, body))
            case Comprehension(kind, element):  # a dict's element: (key, value)
                return Values.of(
                    Container(kind, (element,), where.scope, where.module, where.at, where.block)
                )
        return Values.unknown()
