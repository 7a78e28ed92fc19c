"""What a test calls on the objects its fixtures give it (`runner.invoke(...)` where the
`runner` fixture returns a `CliRunner`): seeds of its closure that no call edge records,
because a parameter's type is unknown to the linker.

A fixture's type, in this order: its return annotation naming a class of the repository; the
one repository class it instantiates; the return annotation of the method it calls on another
typed fixture (`return app.test_client()` -> `FlaskClient`). Pure: names in, names out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence, Set

from ..conventions import ClassTree, Fixture
from ..model import ParsedFile, SymbolKind

__all__ = ["Receiver", "fixture_types", "receiver_calls", "typed_calls"]

Receiver = tuple[str, str, str]  # (function, parameter, method called on it)


def receiver_calls(parsed: ParsedFile, implicit: Set[str]) -> tuple[Receiver, ...]:
    """Calls of one file on a function's own parameters (`param.method(...)`), those named
    in `implicit` left out (its language's `Language.implicit_parameters`)."""
    parameters = {
        s.qualified_name: set(s.parameters) - implicit
        for s in parsed.symbols
        if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)
    }
    found = {
        (site.scope, site.callee[0], site.callee[1])
        for site in parsed.calls
        if len(site.callee) >= 2 and site.callee[0] in parameters.get(site.scope, ())
    }
    return tuple(sorted(found))


def _class_names(parsed: Iterable[ParsedFile]) -> dict[str, str | None]:
    """Short class name -> its qualified name (None when several classes share it)."""
    found: dict[str, str | None] = {}
    for file in parsed:
        for symbol in file.symbols:
            if symbol.kind == SymbolKind.CLASS and symbol.ordinal == 1:
                found[symbol.name] = None if symbol.name in found else symbol.qualified_name
    return found


def fixture_types(
    fixtures: Sequence[Fixture],
    parsed: Mapping[str, ParsedFile],
    instantiated: Mapping[str, set[str]],
    receivers: Mapping[str, Sequence[Receiver]],
    tree: ClassTree,
) -> dict[str, str]:
    """Fixture qualified name -> the repository class of what it gives its tests.
    `instantiated`: function -> classes whose constructor it calls; `receivers`: function ->
    its calls on its parameters."""
    classes = _class_names(parsed.values())
    returns: dict[str, str] = {}
    for file in parsed.values():
        for symbol in file.symbols:
            if symbol.returns and symbol.ordinal == 1:
                returns[symbol.qualified_name] = symbol.returns[-1]
    by_name = {f.name: f for f in fixtures}
    types: dict[str, str] = {}
    for fixture in fixtures:
        annotated = classes.get(returns.get(fixture.qualified_name, ""))
        made = instantiated.get(fixture.qualified_name, set())
        if annotated:
            types[fixture.qualified_name] = annotated
        elif len(made) == 1:
            types[fixture.qualified_name] = next(iter(made))
    for _round in range(3):  # fixtures built from fixtures
        for fixture in fixtures:
            if fixture.qualified_name in types:
                continue
            for _scope, parameter, method in receivers.get(fixture.qualified_name, ()):
                source = by_name.get(parameter)
                owner = types.get(source.qualified_name) if source else None
                target = tree.find_method(owner, method) if owner else None
                result = classes.get(returns.get(target, "")) if target else None
                if result:
                    types[fixture.qualified_name] = result
                    break
    return types


def typed_calls(
    function: str,
    parameters: Mapping[str, str],
    types: Mapping[str, str],
    receivers: Mapping[str, Sequence[Receiver]],
    tree: ClassTree,
) -> list[tuple[str, str]]:
    """(method, parameter) a function calls on its fixture-given parameters; `parameters`:
    parameter -> the fixture it names."""
    found: list[tuple[str, str]] = []
    for _scope, parameter, method in receivers.get(function, ()):
        fixture = parameters.get(parameter)
        owner = types.get(fixture) if fixture else None
        target = tree.find_method(owner, method) if owner else None
        if target is not None:
            found.append((target, parameter))
    return found


def by_function(receivers: Iterable[Receiver]) -> dict[str, list[Receiver]]:
    grouped: dict[str, list[Receiver]] = defaultdict(list)
    for receiver in receivers:
        grouped[receiver[0]].append(receiver)
    return grouped
