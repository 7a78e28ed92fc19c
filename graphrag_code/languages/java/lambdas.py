"""The type of a lambda's untyped parameter, where the call it is passed to makes it evident.

- An element of a JDK container declared with its type arguments: the one parameter of
  `xs.forEach(x -> …)`, `removeIf`, `replaceAll`, `ifPresent`, of the first operation on
  `xs.stream()` (`filter`, `map`, `anyMatch` …), or the second of a `Map`'s
  `forEach((k, v) -> …)`: its (last) type argument.
- A parameter of a repository method declared as a functional interface of the repository
  (one abstract method, as many parameters as the lambda): that method's parameter type at
  the lambda's position (a type variable says nothing); declared as a JDK one taking its
  type argument (`Consumer<Node>`, `Predicate<Node>`, `UnaryOperator`, `BinaryOperator`,
  `Comparator`): that type argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import Attribute, Binding, Call, Name, SymbolKind
from .syntax import ITEM

if TYPE_CHECKING:
    from .resolver import Found, JavaResolver

__all__ = ["lambda_parameter"]

# the methods of JDK containers and streams whose lambda takes one element
_ELEMENT_TAKERS = frozenset(
    {"forEach", "removeIf", "replaceAll", "ifPresent", "ifPresentOrElse", "filter", "map",
     "flatMap", "anyMatch", "allMatch", "noneMatch", "peek", "mapToInt", "mapToLong",
     "mapToDouble", "takeWhile", "dropWhile", "forEachOrdered", "computeIfPresent"}
)  # fmt: skip
_STREAMS = frozenset({"stream", "parallelStream"})
# JDK functional interfaces whose parameters all have their one type argument's type
_OF_ITS_ARGUMENT = frozenset(
    {"Consumer", "Predicate", "UnaryOperator", "BinaryOperator", "Comparator"}
)


def lambda_parameter(resolver: JavaResolver, binding: Binding) -> Found | None:
    """The type of the lambda parameter `binding` binds (`functional.lambda_bindings`)."""
    _, position, at, count, *callee = binding.value
    call = resolver.call_at(binding.scope, binding.line, tuple(callee))
    if call is None:
        return None
    element = _container_element(resolver, call, int(at), int(count), binding)
    if element is not None:
        return element
    return _declared_parameter(resolver, call, int(position), int(at), int(count), binding)


def _container_element(
    resolver: JavaResolver, call: Call, at: int, count: int, binding: Binding
) -> Found | None:
    callee = call.callee
    if not isinstance(callee, Attribute) or callee.name not in _ELEMENT_TAKERS:
        return None
    if at != count - 1 or count > 2:  # the element is the last parameter (a map's value)
        return None
    receiver = callee.value
    if isinstance(receiver, Call) and isinstance(receiver.callee, Attribute):
        if receiver.callee.name not in _STREAMS or count != 1:
            return None
        receiver = receiver.callee.value
    if not (isinstance(receiver, Name) and len(receiver.dotted) == 1):
        return None
    return resolver.element_of(receiver.dotted[0], binding.scope, binding.line)


def _declared_parameter(
    resolver: JavaResolver, call: Call, position: int, at: int, count: int, binding: Binding
) -> Found | None:
    from .calls import call_targets

    targets, _ = call_targets(resolver, call, binding.scope, binding.line)
    if len(targets) != 1 or targets[0].external:
        return None
    method = resolver.lookups.symbol(targets[0].name)
    home = resolver.resolvers.of_symbol(targets[0].name)
    if method is None or home is None or method.kind != SymbolKind.METHOD:
        return None
    if position >= len(method.parameters) or method.parameter_kinds.endswith("*"):
        return None
    table = resolver.lookups.index.scope_bindings.get(method.qualified_name, {})
    declared = table.get((method.parameters[position],))
    if not declared or declared[0].kind != "annotation":
        return None
    interface = home.type_of(declared[0].value, method.qualified_name)
    if interface is None:
        return None
    if interface.external:
        if interface.name.rpartition(".")[2] not in _OF_ITS_ARGUMENT:
            return None
        argument = table.get((method.parameters[position], ITEM))
        return home.type_of(argument[0].value, method.qualified_name) if argument else None
    return _abstract_parameter(resolver, interface.name, at, count)


def _abstract_parameter(
    resolver: JavaResolver, interface: str, at: int, count: int
) -> Found | None:
    """The type of parameter `at` of the one abstract method of a repository interface."""
    symbol = resolver.lookups.symbol(interface)
    if symbol is None or symbol.declared_as != "interface":
        return None
    abstract = [
        method
        for name in resolver.lookups.member_names(interface)
        for qualified in resolver.lookups.members(interface, name)
        if (method := resolver.lookups.symbol(qualified)) is not None
        and method.kind == SymbolKind.METHOD
        and method.declared_as == "abstract"
    ]
    if len(abstract) != 1 or len(abstract[0].parameters) != count:
        return None
    method = abstract[0]
    home = resolver.resolvers.of_symbol(method.qualified_name)
    table = resolver.lookups.index.scope_bindings.get(method.qualified_name, {})
    declared = table.get((method.parameters[at],))
    if home is None or not declared or declared[0].kind != "annotation":
        return None
    return home.type_of(declared[0].value, method.qualified_name)
