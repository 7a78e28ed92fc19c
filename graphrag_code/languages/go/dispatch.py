"""Interface satisfaction, which Go never writes down, and the calls through an interface that
may run each type satisfying it.

A type satisfies an interface of the repository when its method set holds every method the
interface names, its own and its embedded interfaces', each with as many parameters (their
types and the results are not compared); an interface naming an unexported method is
satisfied only by types of its own package (the spec's rule: another package cannot declare
that method). A type's method set is the methods declared on it, with value or pointer
receivers, and those promoted from its embedded types. An interface that embeds one from
outside the repository (`io.Reader`) has methods we cannot list, so nothing is said to
satisfy it. Each satisfaction is an INHERITS edge from the type to the interface,
`implements` set and `via` "satisfies"; a call resolved to an interface's method gets a CALLS
edge of tier `dispatch` to each satisfying type's method (`via` "dispatch via `I.M`"), none
where more than `MAX_OVERRIDES` types satisfy it. The standard library's common interfaces
(`error`, `io.Writer`, `fmt.Stringer`, `http.Handler`: `externals.EXTERNAL_INTERFACES`, method
sets written out) are satisfied the same way; a call through one (`w.Write(p)`) gets the same
`dispatch` edges, and no INHERITS edge is stored for them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ...linking.base import MAX_OVERRIDES
from ...linking.index import Lookups, RepositoryIndex
from ...model import Symbol, SymbolKind
from .externals import EXTERNAL_INTERFACES
from .modules import GoProject
from .resolver import GoResolver, TypeRef

__all__ = ["Satisfaction", "satisfaction"]

_MAX_EMBEDDING = 4
_CONCRETE = ("struct", "type")


@dataclass
class Satisfaction:
    """Which of the repository's types satisfy which of its interfaces."""

    implementers: dict[str, list[str]] = field(default_factory=dict)  # interface -> types
    satisfied: dict[str, list[str]] = field(default_factory=dict)  # type -> interfaces
    interface_modules: frozenset[str] = frozenset()  # the files declaring interfaces
    external: dict[str, list[str]] = field(default_factory=dict)  # `io.Writer` -> types

    def dispatch_targets(self, method: Symbol, resolver: GoResolver) -> list[str]:
        """The methods a call of interface method `method` may run (none past the limit)."""
        return _members(self.implementers.get(method.parent, []), method.name, resolver)

    def external_targets(self, called: str, resolver: GoResolver) -> list[str]:
        """The same for a call named by an external interface's method (`io.Writer.Write`)."""
        interface, _, method = called.rpartition(".")
        return _members(self.external.get(interface, []), method, resolver)


def _members(types: list[str], method: str, resolver: GoResolver) -> list[str]:
    if len(types) > MAX_OVERRIDES:
        return []
    found: list[str] = []
    for name in types:
        member = resolver.member(TypeRef(name), method)
        if member is not None and not member[1]:
            found.append(member[0])
    return found


def satisfaction(index: RepositoryIndex, project: GoProject) -> Satisfaction:
    """Every satisfaction among the Go types of the repository (once per run)."""
    lookups = Lookups(index)  # consulted for the whole run, not for one file
    resolvers: dict[str, GoResolver] = {}

    def resolver(qualified: str) -> GoResolver | None:
        module = index.symbol_module.get(qualified)
        info = index.modules.get(module) if module is not None else None
        if module is None or info is None:
            return None
        if module not in resolvers:
            resolvers[module] = GoResolver(info.parsed, lookups, project)
        return resolvers[module]

    go_types = {
        name: symbol
        for name, symbol in index.symbols.items()
        if symbol.kind == SymbolKind.CLASS and index.symbol_module.get(name) in project.package_of
    }
    methods: dict[str, dict[str, int]] = defaultdict(dict)  # type -> method -> parameters
    for name in go_types:
        for method, declared in index.members.get(name, {}).items():
            symbol = index.symbols.get(declared[0]) if declared else None
            methods[name][method] = len(symbol.parameters) if symbol is not None else -1

    def interface_methods(name: str, depth: int = 0) -> dict[str, int] | None:
        symbol = go_types.get(name)
        if symbol is None or symbol.declared_as != "interface" or depth > _MAX_EMBEDDING:
            return None
        found = dict(methods[name])
        home = resolver(name)
        for base in symbol.bases:
            embedded = home.type_of(base) if home is not None else None
            inner = interface_methods(embedded.name, depth + 1) if embedded else None
            if embedded is None or embedded.external or inner is None:
                return None  # an interface from outside: its methods are unknown
            found = {**inner, **found}
        return found

    def method_set(name: str, depth: int = 0) -> dict[str, int]:
        symbol = go_types[name]
        found = dict(methods[name])
        home = resolver(name)
        if depth < _MAX_EMBEDDING and home is not None:
            for base in symbol.bases:
                embedded = home.type_of(base)
                if embedded is not None and not embedded.external and embedded.name in go_types:
                    found = {**method_set(embedded.name, depth + 1), **found}  # shallow wins
        return found

    interfaces = {
        name: names
        for name, symbol in go_types.items()
        if symbol.declared_as == "interface"
        and (names := interface_methods(name))  # an empty interface says nothing
    }
    private = {  # an unexported method: types of other packages cannot declare it
        name for name, wanted in interfaces.items() if any(m[:1].islower() for m in wanted)
    }

    def package_of(qualified: str) -> str | None:
        module = index.symbol_module.get(qualified)
        return project.package_of.get(module) if module is not None else None

    result = Satisfaction(
        interface_modules=frozenset(index.symbol_module[name] for name in interfaces)
    )
    for name, symbol in sorted(go_types.items()):
        if symbol.declared_as not in _CONCRETE or (not methods[name] and not symbol.bases):
            continue
        has = method_set(name)
        for interface, wanted in interfaces.items():
            if all(has.get(method) == count for method, count in wanted.items()) and (
                interface not in private or package_of(interface) == package_of(name)
            ):
                result.implementers.setdefault(interface, []).append(name)
                result.satisfied.setdefault(name, []).append(interface)
        for interface, wanted in EXTERNAL_INTERFACES.items():
            if all(has.get(method) == count for method, count in wanted.items()):
                result.external.setdefault(interface, []).append(name)
    return result
