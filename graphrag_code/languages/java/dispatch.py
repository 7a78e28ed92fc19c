"""The overrides a virtual call may run: class hierarchy analysis over the repository.

A call bound (certainly) to an instance method that is neither static, private nor final
runs, on a receiver declared as class or interface B, B's method or an override of it in any
of the repository's subtypes of B: classes, interfaces' implementations, anonymous classes
and enum constants with bodies. An override is a method of that name with a body and the
same parameter types (a type variable of the overridden method's, `T`, matches any). Each
gets a CALLS edge of tier `dispatch` (`via` "dispatch via `B.m`"), none where more than
`MAX_OVERRIDES` may run (a call through `Object`-like roots says nothing then).

The subtypes are read once per run; a file's dispatch edges depend on the files declaring
them (consulted), on every method of the callee's name (a new override anywhere relinks it)
and on `SUBTYPES_KEY` + the simple name of each type it looked below (a class that starts
extending one relinks it: `JavaIndexRules`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ...linking.base import MAX_OVERRIDES
from ...linking.index import Lookups, RepositoryIndex
from ...linking.rules import IndexRules
from ...model import ParsedFile, Symbol, SymbolKind
from .resolver import JavaProject, JavaResolver, Resolvers

__all__ = [
    "JAVA_RULES", "SUBTYPES_KEY", "Hierarchy", "JavaIndexRules", "hierarchy", "overridable",
]  # fmt: skip

SUBTYPES_KEY = "java:subtypes:"
_MAX_TYPES = 512  # subtypes visited below one type
_NOT_VIRTUAL = re.compile(r"\b(static|private|final)\b")
_ANNOTATION = re.compile(r"@\w+(?:\.\w+)*(?:\s*\([^()]*\))?")


@dataclass
class Hierarchy:
    """The direct subtypes the repository declares of each of its types."""

    subtypes: dict[str, list[str]] = field(default_factory=dict)
    _below: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _virtual: dict[str, bool] = field(default_factory=dict, repr=False)

    def below(self, cls: str) -> list[str]:
        """The subtypes of `cls`, transitively, breadth first, without `cls`."""
        known = self._below.get(cls)
        if known is not None:
            return known
        order = [cls]
        for current in order:
            if len(order) > _MAX_TYPES:
                break
            for sub in self.subtypes.get(current, ()):
                if sub not in order:
                    order.append(sub)
        self._below[cls] = order[1:]
        return order[1:]

    def may_override(self, lookups: Lookups, method: Symbol) -> bool:
        """Whether a subtype of the method's class declares a method of its name, read
        before any receiver is typed (most calls have none); consulted as `overrides`."""
        if method.kind != SymbolKind.METHOD or method.declared_as == "constructor":
            return False
        virtual = self._virtual.get(method.qualified_name)
        if virtual is None:
            virtual = self._virtual[method.qualified_name] = overridable(method)
        if not virtual:
            return False
        below = self.below(method.parent)
        lookups.names_consulted.add(method.name)
        lookups.names_consulted.update(
            SUBTYPES_KEY + cls.rpartition(".")[2] for cls in (method.parent, *below)
        )
        members = lookups.index.members
        return any(method.name in members.get(sub, {}) for sub in below)

    def overrides(self, resolver: JavaResolver, method: Symbol, bound: str) -> list[str]:
        """The methods a call of `method` on a receiver declared as `bound` (its class or a
        subtype) may run besides `method` itself (none past `MAX_OVERRIDES`), where
        `may_override` said some may."""
        lookups = resolver.lookups
        lookups.names_consulted.add(SUBTYPES_KEY + bound.rpartition(".")[2])
        wanted = resolver.candidate(method).types
        found: list[str] = []
        for sub in self.below(bound):
            lookups.names_consulted.add(SUBTYPES_KEY + sub.rpartition(".")[2])
            for qualified in lookups.members(sub, method.name):
                symbol = lookups.symbol(qualified)
                if (
                    symbol is None
                    or symbol.kind != SymbolKind.METHOD
                    or symbol.declared_as in ("constructor", "abstract")
                    or qualified == method.qualified_name
                ):
                    continue
                if _same_parameters(wanted, resolver.candidate(symbol).types):
                    found.append(qualified)
            if len(found) > MAX_OVERRIDES:
                return []
        return found


def overridable(method: Symbol) -> bool:
    """Neither static, private nor final (by the modifiers before its name)."""
    at = method.code.find(method.name + "(")
    header = _ANNOTATION.sub(" ", method.code[: at if at >= 0 else len(method.code)])
    return _NOT_VIRTUAL.search(header.split("(", 1)[0]) is None


def _same_parameters(overridden: tuple[str, ...], override: tuple[str, ...]) -> bool:
    if len(overridden) != len(override):
        return False
    return all(
        a == b or _is_variable(a) or a == "?" or b == "?"
        for a, b in zip(overridden, override, strict=True)
    )


def _is_variable(name: str) -> bool:
    return len(name) <= 2 and name[:1].isupper()


def hierarchy(index: RepositoryIndex, project: JavaProject) -> Hierarchy:
    """Every internal `extends` / `implements` among the repository's Java types (once per
    run, through lookups of its own: no file's dependencies)."""
    resolvers = Resolvers(Lookups(index), project)
    subtypes: dict[str, list[str]] = defaultdict(list)
    for name, symbol in sorted(index.symbols.items()):
        if symbol.kind != SymbolKind.CLASS or not (symbol.bases or symbol.implements):
            continue
        if index.symbol_module.get(name) not in project.package_of:
            continue
        resolver = resolvers.of_symbol(name)
        if resolver is None:
            continue
        for base in resolver.direct_supertypes(name):
            if not base.external:
                subtypes[base.name].append(name)
    return Hierarchy(dict(subtypes))


class JavaIndexRules(IndexRules):
    def offered_names(self, parsed: ParsedFile) -> list[str]:
        """`SUBTYPES_KEY` + each simple name a type of the file extends or implements."""
        return [
            SUBTYPES_KEY + base[-1]
            for symbol in parsed.symbols
            if symbol.kind == SymbolKind.CLASS
            for base in (*symbol.bases, *symbol.implements)
            if base
        ]


JAVA_RULES = JavaIndexRules()
