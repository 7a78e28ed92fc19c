"""The overrides a virtual call may run: class hierarchy analysis over the repository.

A call bound (certainly) to an instance method that is neither static, private nor final
runs, on a receiver declared as class or interface B, B's method or an override of it in any
of the repository's subtypes of B: classes, interfaces' implementations, anonymous classes
and enum constants with bodies. An override is a method of that name with a body and the
same parameter types (a type variable of the overridden method's, `T`, matches any). Each
gets a CALLS edge of tier `dispatch` (`via` "dispatch via `B.m`"), none where more than
`MAX_OVERRIDES` may run (a call through `Object`-like roots says nothing then).

A call on a receiver declared as an external type (the JDK's `Runnable`, `Comparator`,
`Iterator`, `Comparable`, `AutoCloseable` …, or a dependency's) is bound to that type's
method (`java.lang.Runnable.run`, its external node); the repository's classes below that
type (by their `extends` / `implements`) may run their methods of that name, of an arity and
argument types the call fits (the external method's parameters are not read): each gets a
`dispatch` edge, under the same cap (`external_overrides`); a class that extends the JDK's
`AbstractMap` is below `Map` too, as far as `jdk.JDK_SUPERTYPES` knows the JDK's hierarchy.

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
from .jdk import JDK_SUPERTYPES
from .overloads import Argument, choose, may_run
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

    def external_overrides(
        self,
        resolver: JavaResolver,
        bound: str,
        name: str,
        arguments: list[Argument | None] | None,
    ) -> list[str]:
        """The repository's methods a call of `name` on a receiver declared as the external
        type `bound` may run: in its subtypes, overridable, with a body, fitting the call's
        arguments (None: a method reference's, any); none past `MAX_OVERRIDES`."""
        lookups = resolver.lookups
        lookups.names_consulted.add(name)
        lookups.names_consulted.add(SUBTYPES_KEY + bound.rpartition(".")[2])
        found: dict[str, None] = {}
        for sub in self.below(bound):
            lookups.names_consulted.add(SUBTYPES_KEY + sub.rpartition(".")[2])
            candidates = [
                resolver.candidate(symbol)
                for qualified in lookups.members(sub, name)
                if (symbol := lookups.symbol(qualified)) is not None
                and symbol.kind == SymbolKind.METHOD
                and symbol.declared_as not in ("constructor", "abstract")
                and overridable(symbol)
            ]
            if arguments is not None:
                fitting = [c for c in candidates if may_run(c, arguments)]
                candidates = choose(fitting, arguments) if len(fitting) > 1 else fitting
            found.update(dict.fromkeys(c.name for c in candidates))
            if len(found) > MAX_OVERRIDES:
                return []
        return list(found)


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
    """Every `extends` / `implements` of the repository's Java types, of its own types and of
    external ones (keyed by the external's name), once per run, through lookups of its own:
    no file's dependencies."""
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
            subtypes[base.name].append(name)
    external = [name for name in subtypes if name not in index.symbols]
    for name in external:  # `AbstractMap` below `Map`: the JDK's own hierarchy, as far as known
        for parent in JDK_SUPERTYPES.get(name, ()):
            if name not in subtypes[parent]:
                subtypes[parent].append(name)
                external.append(parent)
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
