"""Containers in Python value flow: the elements of displays, comprehensions and what is
added to them later, their views and methods, iteration, subscripts, `with` and `except`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ....model import (
    OPAQUE,
    Arguments,
    Call,
    Const,
    Expr,
    Int,
    Name,
    Slice,
    Star,
    Str,
    Subscript,
    ValueFlow,
)
from ..resolver import External, Instance, SymbolRef
from . import declared, names, results
from .budget import Where
from .records import (
    ATTRIBUTE_HOME,
    Container,
    Generator,
    Inert,
    Values,
    View,
    container_why,
)

if TYPE_CHECKING:
    from .engine import ValueFlowAnalysis

__all__: list[str] = []  # functions over the analysis (`engine.py`), called as `module._f(self, …)`


def _container_method(
    self: ValueFlowAnalysis,
    container: Container,
    method: str,
    arguments: Arguments,
    where: Where,
) -> Values:
    key = next((v for k, v in arguments if k == 0), OPAQUE)
    if method in ("items", "values", "keys"):
        return Values.of(View(method, container))
    if method == "copy":
        return Values.of(container)
    if method in ("get", "pop", "setdefault"):
        result = _element(self, container, key)
        fallback = next((v for k, v in arguments if k == 1), None)
        if fallback is not None:
            result.add(self._eval(fallback, where))
        elif method != "pop":  # `pop(key)` without a default raises rather than give None
            result.add(Values.of(Inert()))
        return result
    return Values.unknown()


def _container_where(self: ValueFlowAnalysis, container: Container) -> Where:
    return Where(container.scope, container.module, container.at, container.block)


def _element(self: ValueFlowAnalysis, container: Container, key: Expr) -> Values:
    """`container[key]` for a literal key, else any element."""
    return self._memo(
        ("element", container, key),
        lambda: declared._upcast(self, _element_of(self, container, key), container.declared),
    )


def _element_of(self: ValueFlowAnalysis, container: Container, key: Expr) -> Values:
    why = container_why(container)
    where = _container_where(self, container)
    if container.kind == "dict":
        pairs = [p for p in container.elements if isinstance(p, tuple)]
        exact = isinstance(key, Str)
        result = Values()
        matched = False
        for pair_key, value in pairs:
            if pair_key is None:  # {**other}
                result.add(_dict_values(self, self._eval(value, where)))
                continue
            if not exact or pair_key == key or not isinstance(pair_key, Str | Int | Const):
                matched = matched or pair_key == key
                result.add(self._eval(value, where))
        for flow in _stored(self, container):
            added = flow.target[-2:] if flow.target[-2] == "<key>" else ()
            if flow.target[-1] == "<items>":
                result.add(_dict_values(self, self._eval(flow.value, names._where_of(self, flow))))
            elif not isinstance(key, Str) or not added or added[1] == key.text:
                result.add(self._eval(flow.value, names._where_of(self, flow)))
        return result.because(why)
    # a constant index picks one element of a tuple, and of a list nothing is added to
    # (`handler = DEFAULTS[-1]`: its last element, not any of them)
    fixed = container.kind == "tuple" or (
        container.kind == "list" and not container.sliced and not _stored(self, container)
    )
    if isinstance(key, Int) and fixed:
        elements = container.elements
        if not any(isinstance(e, Star) for e in elements):
            index = key.value
            if -len(elements) <= index < len(elements):
                return self._eval(elements[index], where).because(why)  # type: ignore[arg-type]
    return _container_items(self, container)


def _container_items(self: ValueFlowAnalysis, container: Container) -> Values:
    """Every element of a list, tuple or set (a dict: its keys)."""
    return self._memo(
        ("items", container),
        lambda: declared._upcast(self, _container_items_of(self, container), container.declared),
    )


def _container_items_of(self: ValueFlowAnalysis, container: Container) -> Values:
    why = container_why(container)
    where = _container_where(self, container)
    result = Values()
    if container.kind == "dict":
        for pair in container.elements:
            key = pair[0] if isinstance(pair, tuple) else None
            result.add(self._eval(key, where) if key is not None else Values.unknown())
        return result
    for element in container.elements:
        if isinstance(element, Star):
            result.add(_items(self, self._eval(element.value, where), where))
        else:
            result.add(self._eval(element, where))  # type: ignore[arg-type]
    for flow in _stored(self, container):
        values = self._eval(flow.value, names._where_of(self, flow))
        if flow.target[-1] == "<items>":
            values = _items(self, values, names._where_of(self, flow))
        result.add(values)
    return result.because(why)


def _dict_values(self: ValueFlowAnalysis, values: Values) -> Values:
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        if isinstance(value, Container) and value.kind == "dict":
            result.add(_element(self, value, OPAQUE), why)
        else:
            result.complete = False
    return result


def _stored(self: ValueFlowAnalysis, container: Container) -> list[ValueFlow]:
    """The additions that may bring a new element: not one taken from the container
    itself (`self.adapters[key] = self.adapters.pop(key)` reorders requests' adapters),
    which holds nothing the others do not, and would only be a cycle."""
    return [f for f in _additions(self, container) if not _restores(self, f, container)]


def _restores(self: ValueFlowAnalysis, flow: ValueFlow, container: Container) -> bool:
    match flow.value:
        # not `Name((*head, "pop" | "get"))`: mypyc captures a star from a tuple as a tuple
        case Call(Name(dotted), _) if dotted and dotted[-1] in ("pop", "get"):
            receiver: Expr = Name(dotted[:-1])
        case Subscript(value, _):
            receiver = value
        case _:
            return False
    if not isinstance(receiver, Name) or not receiver.dotted:
        return False
    found = self._eval(receiver, names._where_of(self, flow))
    return found.complete and set(found.found) == {container}


def _additions(self: ValueFlowAnalysis, container: Container) -> list[ValueFlow]:
    """Elements stored into the container's home after it was made."""
    home = container.home
    if home is None:
        return []
    marks = ("<item>", "<items>")
    if home[0] == ATTRIBUTE_HOME:
        # the class that sets the attribute, and its bases: a mixin's method may add to
        # it (requests' `RequestHooksMixin.register_hook` to `PreparedRequest.hooks`)
        flows = [
            flow
            for cls in self.resolver.mro(home[1])
            for flow in self.lookups.attribute_additions(cls, home[2])
        ]
        # not `in (*marks, "<key>")`: mypyc cannot compile a starred tuple there (issue 56)
        return [f for f in flows if f.target[2] == "<key>" or f.target[2] in marks]
    scope, name = home
    found: list[ValueFlow] = []
    for mark in marks:
        found += self.lookups.flows(scope, (name, mark))
    keyed = self.index.scope_flows.get(scope, {})
    found += [f for target, flows in keyed.items() if target[:2] == (name, "<key>") for f in flows]
    if scope in self.index.modules:
        found += [f for f in self.lookups.module_flows(scope, name) if len(f.target) > 1]
    return found


def _items(self: ValueFlowAnalysis, values: Values, where: Where) -> Values:
    """One element of each iterable value (`for x in values`)."""
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        self._step()
        if isinstance(value, Container):
            result.add(_container_items(self, value), why)
        elif isinstance(value, View):
            result.add(_view_items(self, value), why)
        elif isinstance(value, Generator):
            result.add(_yields(self, value.function), why)
        elif isinstance(value, Instance):
            method = self.special_method(value, "__iter__")
            iterator = results._function_result(self, method) if method else Values.unknown()
            if any(
                isinstance(v, Instance) and v.class_name == value.class_name for v, _ in iterator
            ):
                method = self.special_method(value, "__next__")
                result.add(
                    results._function_result(self, method) if method else Values.unknown(), why
                )
            else:
                result.add(_items(self, iterator, where), why)
        elif isinstance(value, Inert):
            result.add(Values.of(Inert()))
        else:
            result.complete = False
    return result


def _view_items(self: ValueFlowAnalysis, view: View) -> Values:
    if view.kind == "items":
        return Values.of(View("pair", view.container))
    if view.kind == "values":
        return _element(self, view.container, OPAQUE)
    if view.kind == "keys":
        return _container_items(self, view.container)
    return Values.unknown()


def _yields(self: ValueFlowAnalysis, function: str) -> Values:
    def compute() -> Values:
        result = Values()
        for flow in self.lookups.flows(function, ("<yield>",)):
            result.add(self._eval(flow.value, names._where_of(self, flow)))
        for flow in self.lookups.flows(function, ("<yield from>",)):
            where = names._where_of(self, flow)
            result.add(_items(self, self._eval(flow.value, where), where))
        declared_as = declared._declared(
            self, self.lookups.flows(function, ("<declared>", "<return>"))
        )
        return declared._upcast(self, result, declared_as).because(f"what `{function}` yields")

    return self._memo(("yields", function), compute)


def _subscript(self: ValueFlowAnalysis, values: Values, key: Expr, where: Where) -> Values:
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        self._step()
        if isinstance(value, Container) and isinstance(key, Slice):
            # a slice holds the sliced items, a tuple's at other positions (as a list's)
            sliced = replace(value, kind="list", sliced=True)
            result.add(Values.of(sliced), why)
        elif isinstance(value, Container):
            result.add(_element(self, value, key), why)
        elif isinstance(value, View) and value.kind == "pair" and isinstance(key, Int):
            if key.value == 0:
                result.add(_container_items(self, value.container), why)
            else:
                result.add(_element(self, value.container, OPAQUE), why)
        elif isinstance(value, Instance):
            method = self.special_method(value, "__getitem__")
            if method is not None:
                result.add(results._function_result(self, method), why)
            elif isinstance(key, Int):  # `cls, args = middleware`: unpacking iterates it
                result.add(_unpacked_instance(self, value, key, where), why)
            else:
                result.complete = False
        elif isinstance(value, Inert):
            result.add(Values.of(Inert()))
        elif isinstance(value, SymbolRef) and declared._is_class(self, value.qualified_name):
            # `ConfigAttribute[bool]`: the generic class itself (calling it builds one)
            result.add(Values.of(value), why)
        else:
            result.complete = False
    return result


def _unpacked_instance(self: ValueFlowAnalysis, value: Instance, key: Expr, where: Where) -> Values:
    """The element at position `key` of an instance unpacked through its `__iter__`
    (starlette's `Middleware.__iter__` returns `iter((self.cls, self.args,
    self.kwargs))`): that position of a tuple it iterates, else any element."""
    method = self.special_method(value, "__iter__")
    if method is None:
        return Values.unknown()
    iterated = results._function_result(self, method)
    result = Values(complete=iterated.complete, dynamic=iterated.dynamic)
    for inner, why in iterated:
        if isinstance(inner, Container) and inner.kind == "tuple":
            result.add(_element(self, inner, key), why)
        else:
            result.add(_items(self, Values.of(inner), where), why)
    return result


def _entered(self: ValueFlowAnalysis, values: Values, where: Where) -> Values:
    """What `with value as x` binds: `__enter__`'s result (a context manager made by a
    generator function yields it)."""
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        if isinstance(value, Instance):
            method = self.special_method(value, "__enter__") or self.special_method(
                value, "__aenter__"
            )
            if method is not None and self.resolver.returns_self(method):
                result.add(Values.of(value, f"`{method}` returns `Self`"), why)
                continue
            result.add(results._function_result(self, method) if method else Values.unknown(), why)
        elif isinstance(value, Generator):
            result.add(_yields(self, value.function), why)
        else:
            result.complete = False
    return result


def _raised(self: ValueFlowAnalysis, values: Values, where: Where) -> Values:
    """What `except values as e` binds: an instance of each class."""
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        if isinstance(value, SymbolRef):
            result.add(results._result_of(self, value, (), where), why)
        elif isinstance(value, Container):
            result.add(_raised(self, _container_items(self, value), where), why)
        elif isinstance(value, External):
            result.add(Values.of(External(value.dotted, True)), why)
        else:
            result.complete = False
    return result
