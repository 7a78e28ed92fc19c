"""Calls Python makes without a call expression (`model.ImplicitCall`): `with x` runs
`__enter__` / `__exit__`, `for _ in x` `__iter__`, `a + b` `__add__`, `x.attr` a property's
getter; the operand's values come from the resolver or from value flow. Functions over the
file's `CallLinker`, called as `implicit.link_implicit(linker, call)`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import Block, Call, Edge, EdgeKind, Expr, ImplicitCall, Iterated, Name, Resolution
from .dispatch import ACCESSOR_KINDS, AbsentMember
from .resolver import External, Instance, SymbolRef
from .tables import DESCRIPTOR_KEY, PROPERTY_KEY, is_property
from .values.engine import MAX_CALLEES, Values
from .values.records import Container, Generator, Value

if TYPE_CHECKING:
    from .calls import CallLinker

__all__ = ["FALLBACKS", "IMPLICIT", "ITERATION"]  # and functions over a `CallLinker`

IMPLICIT = "implicit: "
"""How the `via` of a CALLS edge that no call expression wrote begins (`with`, `for`,
operators): the accuracy oracles only see call expressions."""
# what `object`'s own special method runs when the class does not define it: `str(x)` and
# `format(x)` end in `__repr__` (through `__str__` for `format`)
FALLBACKS = {"__str__": ("__repr__",), "__format__": ("__str__", "__repr__")}
_DESCRIPTOR_METHODS = {"get": "__get__", "set": "__set__", "delete": "__delete__"}
# the special methods that step an iterator: over a generator object, its body runs
ITERATION = frozenset({"__iter__", "__aiter__", "__next__", "__anext__"})
# built-ins whose result iterates like their argument (`for x in reversed(items)`)
_ITERATES_LIKE = frozenset({"reversed", "iter", "list", "tuple", "sorted"})


def link_implicit(self: CallLinker, call: ImplicitCall) -> None:
    """The special methods `with`, `for`, operators, f-strings and `raise X` run, and the
    property accessors `x.attr` runs, when the operand's values are known instances (or,
    for `raise X`, classes) of the repository. The tier is the receiver's: `exact` when
    its class is (`self`), `inferred` when value flow knows all its values, `partial`
    when it knows some (others come from callers it cannot follow)."""
    if call.mode in ("get", "set", "delete"):
        if _is_property_name(self, call.methods[0]):
            _link_access(self, call)
        if _is_descriptor_name(self, call.methods[0]):
            _link_descriptor(self, call)
        return
    steps = bool(ITERATION.intersection(call.methods))
    if call.methods and not steps and not any(self._defined(m) for m in call.methods):
        return
    source = self.ids.of_scope(self.parsed, call.scope)
    for value, tier in _operand_values(self, call):
        if isinstance(value, Generator):
            if steps:  # `for x in gen()`: the generator's body runs as the loop asks
                why = f"{IMPLICIT}`{call.syntax}` runs the generator"
                self._edge(source, SymbolRef(value.function), tier, call.line, why)
            continue
        if not call.methods:
            if isinstance(value, SymbolRef) and self._is_class(value.qualified_name):
                why = f"{IMPLICIT}`{call.syntax}` constructs it"
                built = tier if tier == Resolution.PARTIAL else Resolution.INFERRED
                self._edge(source, value, built, call.line, why)
            continue
        for method in call.methods:
            found = self.flow.special_method(value, method)
            if found is not None:
                why = f"{IMPLICIT}`{call.syntax}` runs `{method}`"
                self._edge(source, SymbolRef(found), tier, call.line, why)
                if call.mode == "first":
                    break


def _operand_values(self: CallLinker, call: ImplicitCall) -> list[tuple[Value, Resolution]]:
    found = _values(self, call.operand, call.scope, call.line, call.at, call.block)
    if any(isinstance(value, Container | External) for value, _ in found) and (
        _names_a_parameter(self, _iterated(call.operand), call.scope)
    ):
        # no expression calls these: what runs decides, not the declaration the checkers
        # read (`stream: AsyncGenerator[bytes, None]` holds a generator object of ours)
        with self.flow.runtime_view():
            return _values(self, call.operand, call.scope, call.line, call.at, call.block)
    return found


def _values(
    self: CallLinker, operand: Expr, scope: str, line: int, at: int, block: Block
) -> list[tuple[Value, Resolution]]:
    """An operand's values with the tier of each: the resolver's instance when it knows
    one (`self`, an annotated name), else what value flow finds (few): first without
    following parameters to their callers (operands are everywhere, and most are known
    so), then, for an operand that is a parameter, through its callers; `partial` when
    the values found are not all there are."""
    module = self.parsed.module
    values: Values | None = None
    if isinstance(operand, Name):
        parts = operand.dotted
        typed = self.resolver.resolve_dotted(scope, parts, module, line)
        if isinstance(typed, Instance):
            return [(typed, Resolution.INFERRED if typed.inferred else Resolution.EXACT)]
        # `request.url` where the resolver knows `request` but not `url`'s assignments
        # (`self.url = URL(a) if p else URL(b)`): value flow goes on from there
        for end in range(len(parts) - 1, 0, -1):
            head = self.resolver.resolve_dotted(scope, parts[:end], module, line)
            if isinstance(head, Instance):
                values = self.flow.attributes(head, parts[end:], scope, module, at, block)
                break
    elif isinstance(operand, Call) and isinstance(operand.callee, Name):
        # `with self.make_context(...) as ctx`: the callee's declared return type
        callee = operand.callee.dotted
        result = self.resolver._call_result(
            self.resolver.resolve_dotted(scope, callee, module, line)
        )
        if isinstance(result, Instance):
            return [(result, Resolution.INFERRED)]
    if values is None or not values.complete:
        values = self.flow.evaluate(operand, scope, module, at, block, shallow=True)
    if not values.complete and _names_a_parameter(self, _iterated(operand), scope):
        # then through the parameter to its callers, as call sites are; an operand whose
        # head ran out of steps once will again (`x.a` after `x`): not tried twice
        tried = (scope, _head(operand))
        if tried not in self.operands_cut:
            followed = self.flow.evaluate_operand(operand, scope, module, at, block)
            if followed is None:
                self.operands_cut.add(tried)
            else:
                values = followed
    if not values.found or len(values.found) > MAX_CALLEES:
        return []
    tier = Resolution.INFERRED if values.complete else Resolution.PARTIAL
    return [(value, tier) for value, _ in values]


def _names_a_parameter(
    self: CallLinker, operand: Expr, scope: str, *, aliases: bool = True
) -> bool:
    """Whether an operand is a parameter (`resp`, `resp.headers`) of its function or of one
    enclosing it, or an attribute of `self` (`self._r.headers`, often a parameter of
    `__init__`): what following callers can add to. With `aliases`, also a variable
    assigned from one or from a call of one (`headers = request.headers`,
    `merged = dict_class(...)`)."""
    if not isinstance(operand, Name):
        return False
    head = operand.dotted[0]
    if head in ("self", "cls"):
        return len(operand.dotted) > 1
    bound = self.resolver.binding_scope(scope, head, self.parsed.module)
    if bound is None:
        return False
    if self.resolver.is_parameter(bound, head):
        return True
    return aliases and any(
        _names_a_parameter(self, _callee_of(flow.value), bound, aliases=False)
        for flow in self.resolver.lookups.flows(bound, (head,))
    )


def _link_access(self: CallLinker, call: ImplicitCall) -> None:
    """`x.attr` read / assigned / deleted, x an instance: the property's getter, setter
    or deleter (a class object's attribute is the property itself: nothing runs)."""
    name = call.methods[0]
    source = self.ids.of_scope(self.parsed, call.scope)
    for value, tier in _operand_values(self, call):
        if not isinstance(value, Instance):
            continue
        getter = _property(self, value.class_name, name)
        if getter is None:
            if self._lacks(value.class_name, name, attributes=False):
                # a plain class attribute here, a property in a subclass
                use = AbsentMember(source, value.class_name, name, call.line, call.mode)
                self.absent.append(use)
            continue
        if call.mode == "get":
            why = f"{IMPLICIT}`.{name}` reads the property"
            self._edge(source, SymbolRef(getter), tier, call.line, why)
            continue
        kind = ACCESSOR_KINDS[call.mode]
        ordinal = self.resolver.lookups.accessor(getter, kind)
        if ordinal is not None:
            target = self.ids.of_symbol(getter, ordinal=ordinal)
            why = f"{IMPLICIT}`.{name}` runs the property's {kind}"
            self.add(
                Edge(EdgeKind.CALLS, source, target, resolution=tier, lines=(call.line,),
                     via=why)
            )  # fmt: skip


def _link_descriptor(self: CallLinker, call: ImplicitCall) -> None:
    """`x.attr` read / assigned / deleted, x an instance whose class (or a base) holds a
    descriptor in `attr` (`testing = ConfigAttribute("TESTING")` in the class body): the
    descriptor's `__get__` / `__set__` / `__delete__` runs."""
    name = call.methods[0]
    method = _DESCRIPTOR_METHODS[call.mode]
    if not self._defined(method):
        return
    source = self.ids.of_scope(self.parsed, call.scope)
    for value, tier in _operand_values(self, call):
        if not isinstance(value, Instance):
            continue
        held = self.flow.class_attribute(value.class_name, name)
        if not held.complete or len(held.found) > MAX_CALLEES:
            continue
        for descriptor, _why in held:
            found = self.flow.special_method(descriptor, method)
            if found is not None:
                why = f"{IMPLICIT}`.{name}` runs the descriptor's `{method}`"
                held_tier = tier if tier == Resolution.PARTIAL else Resolution.INFERRED
                self._edge(source, SymbolRef(found), held_tier, call.line, why)


def _is_descriptor_name(self: CallLinker, name: str) -> bool:
    """Whether some class body assigns `name` a call's result (cheap, like
    `_is_property_name`)."""
    lookups = self.resolver.lookups
    lookups.names_consulted.add(DESCRIPTOR_KEY + name)
    return lookups.index.descriptor_names.get(name, 0) > 0


def _property(self: CallLinker, class_name: str, name: str) -> str | None:
    """The getter of the property `name` the class has (own or inherited), if any."""
    for cls in self.resolver.mro(class_name):
        members = self.resolver.lookups.members(cls, name)
        if members:
            return members[0] if _is_property(self, members[0]) else None
    return None  # (`self.name = v` in a subclass runs a base's setter: no instance entry)


def _is_property_name(self: CallLinker, name: str) -> bool:
    """Whether some method of the repository named `name` is a property (cheap: most
    attribute reads are of plain attributes and methods)."""
    lookups = self.resolver.lookups
    # a property (or a setter) of that name appearing or going relinks us
    lookups.names_consulted.add(PROPERTY_KEY + name)
    return lookups.index.property_names.get(name, 0) > 0


def _is_property(self: CallLinker, qualified_name: str) -> bool:
    symbol = self.resolver.lookups.index.symbols.get(qualified_name)
    return symbol is not None and is_property(symbol)


def _iterated(operand: Expr) -> Expr:
    """What an iterated operand iterates in the end: `items` of `iter(reversed(items))`."""
    while True:
        match operand:
            case Iterated(iterable):
                operand = iterable
            case Call(Name((name,)), ((0, argument),)) if name in _ITERATES_LIKE:
                operand = argument
            case _:
                return operand


def _callee_of(value: Expr) -> Expr:
    """The callee of a call expression; any other expression itself."""
    return value.callee if isinstance(value, Call) else value


def _head(operand: Expr) -> object:
    """What an operand's values are found through first: a name's head, else its first part
    (the key under which an operand that ran out of steps is not tried again)."""
    if isinstance(operand, Name):
        return operand.dotted[0]
    return getattr(operand, operand.__slots__[0], operand) if operand.__slots__ else operand
