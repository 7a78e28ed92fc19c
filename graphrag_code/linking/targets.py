"""What a resolved expression is (`Target`), and the small rules every language's resolver
applies to targets and bindings alike.

A `Target` is an internal symbol or module, an external dotted name, or an instance of an
internal class. Any step that relies on inferring a value's type marks the result `inferred`;
the rest is `exact`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..model import Binding, Dotted

__all__ = [
    "NOT_HERE", "External", "Instance", "ModuleRef", "NotHere", "SymbolRef", "Target",
    "agreed_value", "latest_before", "mark", "single", "sole_external",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class SymbolRef:
    qualified_name: str
    inferred: bool = False


@dataclass(frozen=True, slots=True)
class ModuleRef:
    module: str
    inferred: bool = False


@dataclass(frozen=True, slots=True)
class External:
    dotted: Dotted
    inferred: bool = False

    @property
    def name(self) -> str:
        return ".".join(self.dotted)


@dataclass(frozen=True, slots=True)
class Instance:
    """A value whose type is the internal class `class_name`."""

    class_name: str
    inferred: bool = True


Target = SymbolRef | ModuleRef | External | Instance


def mark(target: Target | None, inferred: bool) -> Target | None:
    """`target`, marked inferred when `inferred` (an instance is always inferred)."""
    if target is None or not inferred or target.inferred:
        return target
    if isinstance(target, SymbolRef):
        return SymbolRef(target.qualified_name, True)
    if isinstance(target, ModuleRef):
        return ModuleRef(target.module, True)
    if isinstance(target, External):
        return External(target.dotted, True)
    return target


def single(candidates: list[Target | None]) -> Target | None:
    """The one target all candidates agree on (the exact one when also inferred), else None."""
    found = {c for c in candidates if c is not None}
    if len(found) == 1:
        return found.pop()
    if len(found) > 1 and len({mark(c, True) for c in found}) == 1:
        exact = [c for c in found if not c.inferred]
        return exact[0] if exact else found.pop()
    return None


def latest_before(bindings: list[Binding], line: int) -> list[Binding]:
    """The bindings on the last line, before `line`, that binds the name (flow-insensitive
    within that line; an empty list when the name is not bound yet)."""
    before = [b for b in bindings if b.line <= line]
    if not before:
        return []
    last = max(b.line for b in before)
    return [b for b in before if b.line == last]


def agreed_value(
    bindings: list[Binding] | None,
    resolving: set[tuple[str, Dotted]],
    value: Callable[[Binding], Target | None],
    agree: Callable[[list[Target | None]], Target | None] = single,
) -> Target | None:
    """The value a name holds when all its bindings agree (`agree`): `value` reads each typed
    one by its language's rules; an untyped (`opaque`) binding or an unknown value makes it
    None, and so does a name met again while its bindings are read (`x = x.copy()`), which
    `resolving` tracks (one set per resolver)."""
    if not bindings:
        return None
    key = (bindings[0].scope, bindings[0].target)
    if key in resolving:
        return None
    resolving.add(key)
    try:
        values = [None if binding.kind == "opaque" else value(binding) for binding in bindings]
    finally:
        resolving.discard(key)
    if any(found is None for found in values):
        return None
    return agree(values)


class NotHere:
    """Sentinel: the name is not bound in this scope; look in the enclosing one."""


NOT_HERE = NotHere()


def sole_external(bases: Iterable[Target | None]) -> External | None:
    """The one external class among a class's bases along its MRO; None when there are
    none or several (which of them a member comes from is then unknown)."""
    externals = [base for base in bases if isinstance(base, External)]
    return externals[0] if len(externals) == 1 else None
