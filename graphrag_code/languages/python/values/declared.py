"""Declared types in Python value flow: annotations the resolver does not read (`list[Foo]`,
unions, protocols), `isinstance` narrowing and casts, read as the type checkers read them."""

from __future__ import annotations

import builtins
from dataclasses import replace
from typing import TYPE_CHECKING

from ....model import (
    Binding,
    DeclaredAs,
    Display,
    Dotted,
    Expr,
    Name,
    Str,
    Subscript,
    SymbolKind,
    ValueFlow,
)
from ..resolver import External, Instance, SymbolRef, is_type_variable
from . import containers, names
from .budget import END, Where
from .expressions import leaves_out, render
from .records import (
    Container,
    Inert,
    Value,
    Values,
    externals_only,
    of_target,
    union,
)

if TYPE_CHECKING:
    from .engine import ValueFlowAnalysis

__all__: list[str] = []  # functions over the analysis (`engine.py`), called as `module._f(self, …)`

# the modules whose names in an annotation are special forms or containers (`Any`,
# `Sequence[Foo]`), not the class of the value, and the built-in containers
_TYPING_MODULES = frozenset({"typing", "typing_extensions", "collections", "types", "abc"})
_NOT_A_MEMBER = frozenset({"object", "type", "list", "dict", "set", "frozenset", "tuple"})
# the names of a union annotation that are not its members' classes (`None` is no name there)
_UNION_WORDS = frozenset(
    (*prefix, word) for prefix in ((), ("typing",), ("t",)) for word in ("Union", "Optional")
)


def _declared(self: ValueFlowAnalysis, flows: list[ValueFlow]) -> tuple[str, ...]:
    """The internal classes an annotation the resolver does not read names
    (`Sequence[Foo]` -> Foo)."""
    classes: list[str] = []
    for flow in flows:
        if not isinstance(flow.value, DeclaredAs):
            continue
        symbol = self.lookups.symbol(flow.scope)
        scope = symbol.parent if symbol is not None and flow.target[1] != "self" else flow.scope
        module = names._module(self, flow.scope)
        for dotted in flow.value.classes:
            target = self.resolver.resolve_dotted(scope, dotted, module)
            if isinstance(target, SymbolRef) and _is_class(self, target.qualified_name):
                classes.append(target.qualified_name)
    return tuple(classes)


def _shape(
    self: ValueFlowAnalysis, function: str, name: str, why: str, *, whole: bool = False
) -> Values | None:
    """The container a parameter or result (`<return>`) is declared as, with its
    declared element types (`list[Foo]`, `dict[str, Foo]`, `Iterator[Foo]`); `whole`:
    only if it names the type of every element."""
    flows = self.lookups.flows(function, ("<shape>", name))
    if not flows:
        return None
    flow = flows[0]
    if whole and leaves_out(flow.value):
        return None
    return self._eval(flow.value, names._where_of(self, flow)).because(why)


def _unlike(self: ValueFlowAnalysis, values: Values, classes: Values) -> Values:
    """The values that are not instances of one of `classes` (those that are known)."""
    ours, theirs = _class_names(self, classes)
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        if isinstance(value, Instance) and ours & set(self.resolver.mro(value.class_name)):
            continue
        if isinstance(value, External) and value.inferred and value.dotted in theirs:
            continue
        result.found.setdefault(value, why)
    return result


def _like(self: ValueFlowAnalysis, values: Values, classes: Expr, where: Where) -> Values:
    """What `if not isinstance(x, K): return` leaves in x: its values that are instances
    of a K, each as itself (requests' `merge_cookies` keeps the `RequestsCookieJar` its
    callers pass past `isinstance(cookiejar, cookielib.CookieJar)`), and an instance of
    K for what x may hold that is not known (none where all are known and none is a K:
    no call that passes them gets past the test)."""
    ours, theirs = _class_names(self, self._eval(classes, where))
    result = Values()
    for value, why in values:
        if _is_instance_of(self, value, ours, theirs):
            result.found.setdefault(value, why)
    if not values.complete:
        why = f"`isinstance(…, {render(classes)})`"
        result.add(_instances(self, classes, where).because(why))
    return result


def _is_instance_of(
    self: ValueFlowAnalysis, value: Value, ours: set[str], theirs: set[Dotted]
) -> bool:
    """Whether a value is an instance of one of the repository's classes `ours` or of
    the external classes `theirs` (a repository class's external bases included; a class
    object is an instance of `type`)."""
    if isinstance(value, Instance):
        mro = self.resolver.mro(value.class_name)
        return bool(ours & set(mro)) or any(
            isinstance(base, External) and base.dotted in theirs
            for cls in mro
            for base in self.resolver._bases(cls)
        )
    if isinstance(value, External):
        return value.inferred and value.dotted in theirs
    if isinstance(value, SymbolRef) and _is_class(self, value.qualified_name):
        return any(dotted[-1] == "type" for dotted in theirs)
    return False


def _class_names(self: ValueFlowAnalysis, classes: Values) -> tuple[set[str], set[Dotted]]:
    """The repository's and the external classes among `classes`, a tuple's included
    (`isinstance(x, (str, URL))`)."""
    ours = {c.qualified_name for c, _ in classes if isinstance(c, SymbolRef)}
    theirs = {c.dotted for c, _ in classes if isinstance(c, External)}
    for nested, _ in classes:
        if isinstance(nested, Container) and nested.kind == "tuple":
            parts = containers._container_items(self, nested)
            ours |= {c.qualified_name for c, _ in parts if isinstance(c, SymbolRef)}
            theirs |= {c.dotted for c, _ in parts if isinstance(c, External)}
    return ours, theirs


def _sent(self: ValueFlowAnalysis, function: str) -> Values:
    """What `yield v` evaluates to in `function`: an instance of the type its annotation
    says it is sent (`-> Generator[Request, Response, None]`), else unknown."""
    flows = self.lookups.flows(function, ("<sent>",))
    if len(flows) != 1:
        return Values.unknown()
    why = f"what `{function}` is sent, as its `Generator` annotation declares"
    return self._eval(flows[0].value, names._where_of(self, flows[0])).because(why)


def _is_class(self: ValueFlowAnalysis, qualified_name: str) -> bool:
    symbol = self.lookups.symbol(qualified_name)
    return symbol is not None and symbol.kind == SymbolKind.CLASS


def _upcast(self: ValueFlowAnalysis, values: Values, classes: tuple[str, ...]) -> Values:
    """Values where a type is declared, as the checkers see them: an instance of a
    subclass of a declared class is an instance of that class (which method an override
    dispatches to is a question of its own), elements of a container too."""
    if not classes:
        return values
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        if isinstance(value, Instance) and value.class_name not in classes:
            base = next((c for c in self.resolver.mro(value.class_name) if c in classes), None)
            value = Instance(base) if base is not None else value
        elif isinstance(value, Container) and not value.declared:
            value = replace(value, declared=classes)
        result.found.setdefault(value, why)
    return result


def _declared_only(self: ValueFlowAnalysis, function: str, name: str) -> Values:
    """A parameter's values from its declaration alone; unknown where it declares none,
    and in `runtime_view` where it declares only external types (the callers' values
    are what runs); incomplete there where it declares an abstract protocol."""
    declared = _declared_parameter(self, function, name) or _declared_union(self, function, name)
    if declared is None or (self._uncast and externals_only(declared)):
        return Values.unknown()
    if self._uncast and _declared_protocol(self, function, name):
        # what the callers pass may implement it: not all, for them to be followed
        return Values(dict(declared.found), False, declared.dynamic)
    return declared


def _receiver(self: ValueFlowAnalysis, function: str, name: str) -> Values | None:
    """`self` (or `cls`) of a method: an instance of its class (the class)."""
    symbol = self.lookups.signature(function)
    if symbol is None or symbol.kind != SymbolKind.METHOD or not symbol.parameters:
        return None
    if symbol.parameters[0] != name or "staticmethod" in symbol.decorators:
        return None
    kind = symbol.parameter_kinds[0] if symbol.parameter_kinds else "p"
    if kind not in "po":
        return None
    value = self.resolver._self_value(symbol)
    below = self._self_class
    if below is not None and below != symbol.parent and symbol.parent in self.resolver.mro(below):
        # a base's method run for an instance of `below`
        if isinstance(value, Instance):
            value = Instance(below, inferred=False)
        elif isinstance(value, SymbolRef):
            value = SymbolRef(below)
    return of_target(value)


def _declared_union(
    self: ValueFlowAnalysis, function: str, name: str, kind: str = "parameter"
) -> Values | None:
    """A parameter declared as a union of classes (`stream: SyncByteStream |
    AsyncByteStream | None`, `proxy: ProxyTypes` with `ProxyTypes = Union["URL", str,
    "Proxy"]`): an instance of one of them, as a type checker reads it, where its callers
    do not say which (not followed, too many, or passing what is not known). An instance
    of a class not ours (`str`) runs nothing of ours. None when the annotation names
    anything else (`Any`, a type variable, a name that is not a class or such a union)."""
    declared = {f.value for f in self.lookups.flows(function, ("<declared>", name))}
    if len(declared) > 1:
        return None
    if declared:
        (value,) = declared
        if not isinstance(value, DeclaredAs):
            return None
        members: tuple[tuple[str, ...], ...] = value.classes
    else:  # `x: Alias` reads as one class to the parser, which cannot tell
        typed = self.index.scope_bindings.get(function, {}).get((name,), [])
        annotations = {b.value for b in typed if b.kind == "annotation"}
        if len(annotations) != 1:
            return None
        members = tuple(annotations)
    symbol = self.lookups.symbol(function)
    scope = symbol.parent if symbol is not None else function
    where = Where(scope, names._module(self, function), END, ())
    result = Values()
    for dotted in members:
        if dotted in _UNION_WORDS:
            continue
        member = _declared_member(self, dotted, where)
        if member is None:
            return None
        spelled = ".".join(dotted)
        result.add(member, f"the {kind} `{name}` of `{function}`, declared `{spelled}`")
    return result if result.found else None


def _declared_member(
    self: ValueFlowAnalysis, dotted: tuple[str, ...], where: Where
) -> Values | None:
    """An instance of what one name of a union annotation names: a class (ours or not) or
    a type alias of a union of classes; None for anything else."""
    target = self.resolver.resolve_dotted(where.scope, dotted, where.module)
    if isinstance(target, SymbolRef) and _is_class(self, target.qualified_name):
        if _is_callback_protocol(self, target.qualified_name):
            return None  # any callable: a class, a function, an instance
        return Values.of(Instance(target.qualified_name))
    if isinstance(target, External):
        if not foreign_class(target):
            return None
        return Values.of(External(target.dotted, True))
    if target is not None:
        return None
    alias = self._eval(Name(dotted), where)  # `ProxyTypes = Union["URL", str, "Proxy"]`
    if not alias.complete or not alias.found:
        return None
    result = Values()
    for value, why in alias:
        if isinstance(value, SymbolRef) and _is_class(self, value.qualified_name):
            result.add(Values.of(Instance(value.qualified_name)), why)
        elif isinstance(value, External) and foreign_class(value):
            result.add(Values.of(External(value.dotted, True)), why)
        elif not isinstance(value, Inert):  # `None` in the union
            return None
    return result


def _declared_parameter(self: ValueFlowAnalysis, function: str, name: str) -> Values | None:
    """What a parameter holds whoever passes it: a method's receiver, an instance of the
    one class its annotation names, the container `list[Foo]` declares; None when its
    annotation says none of these."""
    receiver = _receiver(self, function, name)
    if receiver is not None:
        return receiver
    typed = self.index.scope_bindings.get(function, {}).get((name,), [])
    declared = [b for b in typed if _names_a_type(self, b)]
    if declared:  # a declared type is what the checkers use: it wins over call sites
        return of_target(self.resolver._binding_value(declared, function))
    # `list[Foo]`: its elements are Foos
    return _shape(self, function, name, f"the parameter `{name}`")


def _declared_protocol(self: ValueFlowAnalysis, function: str, name: str) -> bool:
    """Whether a parameter is annotated with an abstract protocol and its element types
    (`stream: AsyncGenerator[bytes, None]`, `environ: Mapping[str, str]`): a shape that
    whatever class the callers pass may fill (a generator function's object, a
    `MutableMapping` subclass of ours)."""
    return bool(self.lookups.flows(function, ("<protocol>", name)))


def _names_a_type(self: ValueFlowAnalysis, binding: Binding) -> bool:
    """Whether a binding is an annotation naming a type the resolver knows, which then
    decides the value (`x: object` too: anything). Not a type variable (`f: F` in flask's
    `setupmethod(f: F) -> F`) nor a name that resolves to nothing such as a type alias
    (`Lifespan[Any]`): the assigned values and the callers say what those hold."""
    if binding.kind not in ("annotation", "class"):
        return False
    target = self.resolver.resolve_dotted(
        binding.scope, binding.value, names._module(self, binding.scope)
    )
    return target is not None and not is_type_variable(target)


def _callback_protocols_only(self: ValueFlowAnalysis, values: Values) -> bool:
    return bool(values.found) and all(
        isinstance(value, Instance) and _is_callback_protocol(self, value.class_name)
        for value in values.found
    )


def _is_callback_protocol(self: ValueFlowAnalysis, class_name: str) -> bool:
    """A `Protocol` that declares only `__call__` (starlette's `_MiddlewareFactory`): it
    says "something callable so", which a class or a function is as well as an instance;
    what the callers pass says which."""
    symbol = self.lookups.symbol(class_name)
    if symbol is None or symbol.kind != SymbolKind.CLASS:
        return False
    if self.lookups.member_names(class_name) != {"__call__"}:
        return False
    return any(
        isinstance(base, External) and base.dotted[-1] == "Protocol"
        for base in self.resolver._bases(class_name)
    )


def _is_protocol(self: ValueFlowAnalysis, class_name: str) -> bool:
    """A class of ours that is a `typing.Protocol` (not one that implements one): it cannot
    be instantiated, and its methods are stubs that run only on an explicit subclass."""
    symbol = self.lookups.symbol(class_name)
    return (
        symbol is not None
        and symbol.kind == SymbolKind.CLASS
        and any(
            isinstance(base, External) and base.dotted[-1] == "Protocol"
            for base in self.resolver._bases(class_name)
        )
    )


def _instances(self: ValueFlowAnalysis, classes: Expr, where: Where) -> Values:
    """An instance of the class an expression names (`cast(Foo, v)`, `"Foo"`, an
    `isinstance` test's classes, a declared element type): complete only when every class
    is known."""
    if isinstance(classes, Str):
        dotted = tuple(classes.text.strip().split("."))
        named = self.resolver.resolve_dotted(where.scope, dotted, where.module)
        values = of_target(named)
    elif isinstance(classes, Display) and classes.kind == "tuple":
        return union(_instances(self, part, where) for part in classes.elements)
    else:
        values = self._eval(classes, where)
    result = Values(complete=values.complete, dynamic=values.dynamic)
    for value, why in values:
        if isinstance(value, SymbolRef) and _is_class(self, value.qualified_name):
            result.add(Values.of(Instance(value.qualified_name)), why)
        elif is_type_variable(value):
            result.complete = False
        elif isinstance(value, External) and value.dotted[-1] in ("Any", "object"):
            result.complete = False  # `Iterator[Any]`, `dict[str, object]`: anything
        elif isinstance(value, External) and names_a_class(value):
            result.add(Values.of(External(value.dotted, True)), why)
        else:
            result.complete = False
    return result


def _mentions_type_variable(self: ValueFlowAnalysis, expr: Expr, where: Where) -> bool:
    """Whether a type expression names a type variable: `F`, `type[F]`, `Optional[F]`,
    `dict[str, F]` (the classes it stands for are the value's own)."""
    match expr:
        case Name():
            return _is_type_variable(self, expr, where)
        case Subscript(_, key):
            return _mentions_type_variable(self, key, where)
        case Display("tuple", elements):
            return any(_mentions_type_variable(self, part, where) for part in elements)
    return False


def _is_type_variable(self: ValueFlowAnalysis, expr: Expr, where: Where) -> bool:
    """Whether `expr` names a type variable (`F = TypeVar("F")`), which names no class."""
    values = self._eval(expr, where)
    return bool(values.found) and all(is_type_variable(value) for value, _ in values)


def names_a_class(target: External) -> bool:
    """Whether an external name in a type's place (`isinstance(x, dict)`, `cast(Foo, v)`,
    `list[timedelta]`) is a class: a built-in type, or any other name (a module's function
    there would be an error); not a built-in function."""
    if target.dotted[0] == "<builtin>":
        return isinstance(getattr(builtins, target.dotted[-1], None), type)
    return True


def foreign_class(target: External) -> bool:
    """Whether a name of a union annotation, not ours, is the class of a value (`str`,
    `httpcore.URL`): not `Any`, a container (`Sequence[Foo]`: the names inside are not the
    value's class either) nor a type variable. An instance of it runs nothing of ours."""
    dotted = target.dotted
    if dotted[0] in _TYPING_MODULES or is_type_variable(target):
        return False
    return not (dotted[0] == "<builtin>" and dotted[-1] in _NOT_A_MEMBER)
