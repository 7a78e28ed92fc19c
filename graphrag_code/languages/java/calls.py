"""Which declarations a call runs, and how sure that is.

`exact`: unqualified calls of the methods of the enclosing types and their supertypes (and
of statically imported ones), static calls through a type's name (`Orders.load()`),
constructors (`new T(…)`: T's constructor, or T itself when it declares none; `this(…)`,
`super(…)`, the implicit `super()` of `implicit`). `inferred`: calls on a value whose type
its declaration says (locals, `var` from `new`, a cast or a call, parameters, fields, a call's
declared result, `this.`, `super.`, the element a declared `List<T>` / `Map<K, T>` /
`Optional<T>` … gives by `get`, `next`, `orElse` …). Overloads by `overloads.choose`; several
left: tier `many` to each. A method no type of the repository declares, on a type with an
external supertype, is that external type's (`java.util.AbstractList.add`). A method
reference (`Foo::bar`, `this::m`, `Type::new`) is a call of unknown arity: every overload of
its name (one: its tier, several: `many`).
"""

from __future__ import annotations

from ...model import Attribute, Call, InstanceOf, Name, Resolution
from .functional import REFERENCE
from .implicit import IMPLICIT_SUPER
from .overloads import Argument, Candidate, choose
from .resolver import Found, JavaResolver
from .syntax import NEW

__all__ = ["Targets", "call_targets", "external_receiver", "is_reference", "receiver_class"]

Targets = tuple[list[Found], Resolution | None]
_NONE: Targets = ([], None)


def call_targets(resolver: JavaResolver, call: Call, scope: str, line: int) -> Targets:
    callee = call.callee
    arguments: list[Argument | None] | None = None  # a method reference's: unknown
    if not is_reference(call):
        arguments = [resolver.argument(value, scope, line) for _, value in call.arguments]
    if isinstance(callee, InstanceOf) and isinstance(callee.classes, Name):
        # an anonymous class: its superclass's constructor runs, none of an interface's
        created = resolver.type_of(callee.classes.dotted, scope)
        symbol = None if created is None or created.external else resolver.symbol(created.name)
        if symbol is None or symbol.declared_as == "interface":
            return _NONE
        return _construct(resolver, created, arguments)
    if isinstance(callee, Name):
        dotted = callee.dotted
        if dotted[0] == NEW:
            return _construct(resolver, resolver.type_of(dotted[1:], scope), arguments)
        if dotted == (IMPLICIT_SUPER,):
            return _implicit_super(resolver, scope)
        if dotted in (("this",), ("super",)):
            classes = resolver.classes_around(scope)
            if not classes:
                return _NONE
            if dotted == ("this",):
                return _construct(resolver, Found(classes[0]), arguments)
            supers = resolver.direct_supertypes(classes[0])
            return _construct(resolver, supers[0] if supers else None, arguments)
        return _unqualified(resolver, dotted[-1], scope, arguments)
    if not isinstance(callee, Attribute):
        return _NONE
    receiver = callee.value
    if isinstance(receiver, Name):
        owner, static = resolver.receiver(receiver.dotted, scope, line)
    else:
        owner, static = resolver.value_type(receiver, scope, line), False
    if owner is None:
        return _NONE
    tier = Resolution.EXACT if static else Resolution.INFERRED
    if owner.external:
        return [Found(f"{owner.name}.{callee.name}", external=True)], tier
    return _methods(resolver, owner.name, callee.name, arguments, tier)


def is_reference(call: Call) -> bool:
    """A method reference (`Foo::bar`): its arity is unknown."""
    return any(key == REFERENCE for key, _ in call.arguments)


def receiver_class(resolver: JavaResolver, call: Call, scope: str, line: int) -> str | None:
    """The repository's class a virtual call's receiver is declared as (`this`'s class for an
    unqualified call, the type of `Type::m`): what the overrides that may run must extend.
    None for static calls, `super.m()`, constructors and receivers of external or unknown
    types."""
    callee = call.callee
    if (
        isinstance(callee, Name)
        and len(callee.dotted) == 1
        and callee.dotted[0] not in ("this", "super")
    ):
        name = callee.dotted[0]
        for cls in resolver.classes_around(scope):
            if resolver.methods(cls, name):
                return cls
        return None
    if not isinstance(callee, Attribute):
        return None
    receiver = callee.value
    if isinstance(receiver, Name):
        if receiver.dotted[-1] == "super":
            return None
        owner, static = resolver.receiver(receiver.dotted, scope, line)
    else:
        owner, static = resolver.value_type(receiver, scope, line), False
    if static and not is_reference(call):
        return None
    return None if owner is None or owner.external else owner.name


def external_receiver(resolver: JavaResolver, call: Call, scope: str, line: int) -> str | None:
    """The external type (the JDK's, a dependency's) a call's receiver is declared as: `r`
    of `Runnable r` in `r.run()`. None for unqualified and static calls, method references,
    `this.` / `super.` and receivers of the repository's or unknown types."""
    callee = call.callee
    if not isinstance(callee, Attribute) or is_reference(call):
        return None
    receiver = callee.value
    if isinstance(receiver, Name):
        if receiver.dotted[-1] in ("this", "super"):
            return None
        owner, static = resolver.receiver(receiver.dotted, scope, line)
    else:
        owner, static = resolver.value_type(receiver, scope, line), False
    return None if static or owner is None or not owner.external else owner.name


def _methods(
    resolver: JavaResolver,
    cls: str,
    name: str,
    arguments: list[Argument | None] | None,
    tier: Resolution,
) -> Targets:
    candidates = resolver.methods(cls, name)
    if not candidates:
        external = resolver.external_supertype(cls)
        if external is None:
            return _NONE
        return [Found(f"{external}.{name}", external=True)], tier
    chosen = candidates if arguments is None else choose(candidates, arguments)
    if not chosen:
        return _NONE
    return [Found(c.name) for c in chosen], tier if len(chosen) == 1 else Resolution.MANY


def _unqualified(
    resolver: JavaResolver, name: str, scope: str, arguments: list[Argument | None] | None
) -> Targets:
    classes = resolver.classes_around(scope)
    for cls in classes:
        if resolver.methods(cls, name):
            return _methods(resolver, cls, name, arguments, Resolution.EXACT)
    statement = resolver.single.get(name)
    if statement is not None:
        if resolver.symbol(statement.module) is not None:
            return _methods(resolver, statement.module, name, arguments, Resolution.EXACT)
        if resolver.unclear(statement.module):
            return _NONE
        return [Found(f"{statement.module}.{name}", external=True)], Resolution.EXACT
    for module in resolver.stars:
        symbol = resolver.lookups.symbol(module)
        if symbol is not None and resolver.methods(module, name):
            return _methods(resolver, module, name, arguments, Resolution.EXACT)
    for cls in classes:
        external = resolver.external_supertype(cls)
        if external is not None:
            return [Found(f"{external}.{name}", external=True)], Resolution.EXACT
    return _NONE


def _implicit_super(resolver: JavaResolver, scope: str) -> Targets:
    """javac's implicit `super()`: the repository superclass's no-argument constructor (the
    class itself when it declares none); nothing for an external one (`Object()` …)."""
    classes = resolver.classes_around(scope)
    parent = resolver.superclass(classes[0]) if classes else None
    if parent is None or parent.external:
        return _NONE
    return _construct(resolver, parent, [])


def _construct(
    resolver: JavaResolver, created: Found | None, arguments: list[Argument | None] | None
) -> Targets:
    if created is None:
        return _NONE
    if created.external:
        return [created], Resolution.EXACT
    constructors = resolver.constructors(created.name)
    if not constructors:
        return [created], Resolution.EXACT
    canonical = _canonical(resolver, created.name, constructors)
    if canonical is not None:
        constructors = [*constructors, canonical]
    chosen = constructors if arguments is None else choose(constructors, arguments)
    if not chosen:
        return _NONE
    tier = Resolution.EXACT if len(chosen) == 1 else Resolution.MANY
    return [Found(c.name) for c in chosen], tier


def _canonical(resolver: JavaResolver, cls: str, declared: list[Candidate]) -> Candidate | None:
    """A record's canonical constructor javac makes, as a candidate named as the record (its
    stand-in, as for a default constructor), when none of `declared` is it: a compact one (its
    parameters' types unread, `?`) or one of the components' types."""
    symbol = resolver.symbol(cls)
    if symbol is None or symbol.declared_as != "record":
        return None
    made = resolver.candidate(symbol)
    for constructor in declared:
        if len(constructor.types) == len(made.types) and (
            constructor.types == made.types or set(constructor.types) <= {"?"}
        ):
            return None
    return made
