"""Attributes in Python value flow: of modules, classes, instances (what the class and its
bases assign, properties), `super()` and externals."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from ....model import (
    Call,
    DeclaredAs,
    Definition,
    Expr,
    SymbolKind,
    ValueFlow,
)
from ..annotations import NOT_ONE_CLASS
from ..resolver import External, Instance, ModuleRef, SymbolRef
from . import declared, names, results
from .budget import MAX_CANDIDATES, Where
from .records import (
    ATTRIBUTE_HOME,
    Bound,
    Container,
    Inert,
    Super,
    Value,
    Values,
    View,
    homed,
    of_target,
)

if TYPE_CHECKING:
    from .engine import ValueFlowAnalysis

__all__: list[str] = []  # functions over the analysis (`engine.py`), called as `module._f(self, …)`


def _attribute(self: ValueFlowAnalysis, values: Values, name: str, where: Where) -> Values:
    """`value.name` for each value: the attribute's own reason (a property, a class
    attribute) says more than how the object was found, which fills in otherwise."""
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        found = _attribute_of(self, value, name, where).otherwise(why)
        made_by = values.made_by.get(value)
        if made_by is not None:
            # an instance one known call made holds what that call passed, and its methods
            # run on it (`builder = Builder(cls); builder.build()`)
            found = found.without_callers_of(made_by).made(made_by, Bound)
        result.add(found)
    return result


def _attribute_of(self: ValueFlowAnalysis, value: Value, name: str, where: Where) -> Values:
    self._step()
    resolver = self.resolver
    if isinstance(value, ModuleRef):
        named = names._module_name(self, value.module, name, None)
        submodule = f"{value.module}.{name}" if value.module else name
        if not named.found and self.lookups.has_module(submodule):
            # `import requests.adapters` makes `adapters` an attribute of `requests`
            return Values.of(ModuleRef(submodule))
        return named.because(f"`{value.module}.{name}`" if value.module else "")
    if isinstance(value, External):
        return Values.of(External((*value.dotted, name), value.inferred))
    if isinstance(value, Instance):
        return _instance_attribute(self, value.class_name, name)
    if isinstance(value, SymbolRef):
        symbol = self.lookups.symbol(value.qualified_name)
        if symbol is not None and _decorated_away(self, symbol.qualified_name):
            return Values()  # the name holds what the decorators returned, not the function
        if symbol is None or symbol.kind != SymbolKind.CLASS:
            return Values.unknown()
        return _class_attribute(self, symbol.qualified_name, name)
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


def _decorated_away(self: ValueFlowAnalysis, function: str) -> bool:
    """Whether a decorated def's name holds only what its decorators returned, all known and
    all instances of our classes (`@huey.task() def f` binds `f` to a `TaskWrapper`). Value
    flow keeps the def beside those values, as what calling the wrapper runs; for `f.attr`
    and for what `f()` returns the def has no part, and its unknown attributes and returns
    would hide the wrapper's."""
    symbol = self.lookups.symbol(function)
    if symbol is None or symbol.kind != SymbolKind.FUNCTION or not symbol.decorators:
        return False
    decorations = [
        flow
        for flow in self.lookups.flows(symbol.parent, (symbol.name,))
        if _decorates(flow.value, function)
    ]
    if not decorations:
        return False
    values = self._memo(
        ("decorations", function), lambda: names._flow_values(self, decorations, None, "")
    )
    # instances of our classes only: an external result (`lru_cache(f)`, `typing.Any`) may be
    # the function itself, or stand for a value nobody knows
    return (
        values.complete
        and bool(values.found)
        and all(isinstance(v, Instance) for v in values.found)
    )


def _decorates(value: Expr, function: str) -> bool:
    """Whether `value` is decorators applied to the definition `function` (`d(e(f))`)."""
    while isinstance(value, Call) and len(value.arguments) == 1:
        value = value.arguments[0][1]
    return isinstance(value, Definition) and value.qualified_name == function


def _class_attribute(self: ValueFlowAnalysis, class_name: str, name: str) -> Values:
    return self._memo(
        ("class attribute", class_name, name),
        lambda: _class_attribute_of(self, class_name, name),
    )


def _class_attribute_of(self: ValueFlowAnalysis, class_name: str, name: str) -> Values:
    for cls in self.resolver.mro(class_name):
        members = self.lookups.members(cls, name)
        if members:
            member = self.lookups.symbol(members[0])
            if member is not None and "classmethod" in member.decorators:
                return Values.of(Bound(members[0], class_name))
            return Values.of(SymbolRef(members[0]))
        flows = [f for f in self.lookups.attribute_flows(cls, name) if f.scope == cls]
        if flows:
            return names._flow_values(
                self, flows, (ATTRIBUTE_HOME, cls, name), f"the attribute `{cls}.{name}`"
            )
    typed = self.resolver.class_member(class_name, name, instance=False)
    return of_target(typed) if typed is not None else Values.unknown()


def _instance_attribute(self: ValueFlowAnalysis, class_name: str, name: str) -> Values:
    return self._memo(
        ("attribute", class_name, name), lambda: _instance_attribute_of(self, class_name, name)
    )


def _instance_attribute_of(self: ValueFlowAnalysis, class_name: str, name: str) -> Values:
    resolver = self.resolver
    if name == "__class__":
        return Values.of(SymbolRef(class_name, True), "`__class__`")
    for cls in resolver.mro(class_name):
        members = self.lookups.members(cls, name)
        if members:
            return _member_value(self, members[0], name, class_name)
        annotated = self.lookups.declared_attribute(cls, name)
        flows = self.lookups.attribute_flows(cls, name)
        if flows or annotated is not None:
            bindings = self.lookups.attribute_bindings(cls, name)
            types = [b for b in bindings if declared._names_a_type(self, b)]
            if types:
                return of_target(resolver._binding_value(types, cls))
            field = None if flows else _declared_field(self, class_name, cls, name)
            if field is not None:  # `stream: A | B` in the class body, no code assigns it
                return field
            why = f"the attribute `{name}`"
            values = _inherited_values(self, class_name, cls, flows, name, why)
            if any(flow.scope == cls for flow in flows):
                values = _through_descriptors(self, values, name)
            values.add(_stored_outside(self, class_name, name))
            return declared._upcast(
                self, values, declared._declared(self, [annotated] if annotated else [])
            )
    typed = resolver.class_member(class_name, name, instance=True)
    if typed is not None:
        return of_target(typed)
    for cls in resolver.mro(class_name):  # `stream: AnyStream`, an alias of a union
        field = _declared_field(self, class_name, cls, name)
        if field is not None:
            return field
    stored = _stored_outside(self, class_name, name)
    if stored.found:
        return stored
    # a class all of ours, without `__getattr__`, that never sets the name: reading it
    # fails, so the value is not one of its instances (one member of a declared union
    # lacking the method the code calls: `stream.close()` on `SyncStream | AsyncStream`)
    return Values() if _closed_class(self, class_name) else Values.unknown()


FIELD = "field"
"""What `_declared_field`'s values are said to come from (`the field `x` of `C`, declared
…`): calls through them do not dispatch (`declared_field_only`)."""


def declared_field_only(whys: Iterable[str]) -> bool:
    """Whether values came only through fields declared as unions: the union names the
    classes a checker reads; every override below each (anyio's stream ABCs have a dozen)
    would run far more often in a dispatch edge than in the program."""
    whys = list(whys)
    return bool(whys) and all(f"the {FIELD} `" in why for why in whys)


def _declared_field(
    self: ValueFlowAnalysis, class_name: str, owner: str, name: str
) -> Values | None:
    """An attribute the class body of `owner` only annotates (a dataclass field, `stream: A
    | B`, or `stream: AnyStream` with `AnyStream = Union[A, B]`) and no code of the class
    assigns: an instance of one of the union's classes, as the checkers read it, and what
    code outside stores there. None where the annotation is no such union (a container's
    element types are `_shape`'s)."""
    named = {f.value for f in self.lookups.flows(owner, ("<declared>", name))}
    named |= {
        DeclaredAs((b.value,))
        for b in self.index.scope_bindings.get(owner, {}).get((name,), [])
        if b.kind == "annotation"
    }
    if any(
        not isinstance(value, DeclaredAs)
        or any(dotted[-1] in NOT_ONE_CLASS and dotted[-1] != "Union" for dotted in value.classes)
        for value in named
    ):
        return None
    union = declared._declared_union(self, owner, name, FIELD)
    if union is None:
        return None
    union.add(_stored_outside(self, class_name, name))
    return union


def _inherited_values(
    self: ValueFlowAnalysis,
    class_name: str,
    owner: str,
    flows: list[ValueFlow],
    name: str,
    why: str,
) -> Values:
    """What the flows of `owner` (a class of `class_name`'s MRO) put in the attribute,
    read on an instance of `class_name`: `self` in `owner`'s methods is that instance, so
    what they read through it is what `class_name` says (`self.storage_class()` in a
    base's `__init__`, the subclass overriding `storage_class`)."""
    if owner == class_name or all(flow.scope == owner for flow in flows):
        return names._flow_values(self, flows, (ATTRIBUTE_HOME, owner, name), why)
    outer = self._self_class
    self._self_class = class_name
    try:
        return names._flow_values(self, flows, (ATTRIBUTE_HOME, owner, name), why)
    finally:
        self._self_class = outer


def _through_descriptors(self: ValueFlowAnalysis, values: Values, name: str) -> Values:
    """What reading an attribute of an instance gives where its class body holds
    descriptors (`name = Field()`, Field defining `__get__`): what their `__get__`
    returns, not the descriptor."""
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        getter = self.special_method(value, "__get__")
        if getter is None:
            result.add(Values.of(value), why)
        else:
            result.add(results._function_result(self, getter), f"`.{name}` runs `{getter}`")
    return result


def _stored_outside(self: ValueFlowAnalysis, class_name: str, name: str) -> Values:
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
    if not stores or len(stores) > MAX_CANDIDATES:
        return result
    mro = self.resolver.mro(class_name)
    for module, flow in stores:
        where = Where(flow.scope, module, flow.at, flow.block)
        receivers = self._shallow(partial(names._name, self, flow.target[0], where))
        if any(
            isinstance(value, Instance)
            and (value.class_name in mro or class_name in self.resolver.mro(value.class_name))
            for value, _ in receivers
        ):
            values = homed(self._eval(flow.value, where), (ATTRIBUTE_HOME, class_name, name))
            result.add(values, f"`{'.'.join(flow.target)} = …`")
    return result


def _closed_class(self: ValueFlowAnalysis, class_name: str) -> bool:
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


def _member_value(self: ValueFlowAnalysis, qualified: str, name: str, receiver: str) -> Values:
    member = self.lookups.symbol(qualified)
    if member is None:
        return Values.unknown()
    if member.kind == SymbolKind.CLASS:
        return Values.of(SymbolRef(qualified))
    decorators = member.decorators
    if any(d.split(".")[-1] in ("property", "cached_property") for d in decorators):
        return results._function_result(self, qualified).because(
            f"the property `{member.parent}.{name}`"
        )
    if "staticmethod" in decorators:
        return Values.of(SymbolRef(qualified))
    return Values.of(Bound(qualified, receiver))
