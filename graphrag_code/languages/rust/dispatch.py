"""Trait dispatch: a call that reaches a trait's method (a receiver typed `dyn Trait`,
`impl Trait` or a generic parameter bound by the trait) may run the method of each of the
repository's impls of that trait, and the trait's default body where an impl leaves it out.
Those are *possible* edges (tier `dispatch`, `via` "dispatch via `Trait::m`"), none where more
than `MAX_OVERRIDES` impls define the method: so many say nothing about a trace.

The impls are found by the last segment of the trait's name (`TraitImpls`, made once per
run), then kept where the impl's trait resolves to the called one (or, where it resolves to
nothing, where the last segments agree).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...linking.base import MAX_OVERRIDES
from ...model import Symbol
from .paths import joined
from .resolver import RustResolver

__all__ = ["TraitImpls", "dispatch_targets"]

TraitImpls = Mapping[str, tuple[str, ...]]
"""A trait's last name -> the qualified names of the impls (`Type::Trait`) that name it."""


def trait_impls(symbols: Mapping[str, Symbol]) -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for name, symbol in symbols.items():
        if symbol.declared_as == "impl" and symbol.implements and "::" in name:
            found.setdefault(symbol.implements[0][-1], []).append(name)
    return {trait: tuple(impls) for trait, impls in found.items()}


def dispatch_targets(resolver: RustResolver, target: str, impls: TraitImpls) -> list[str]:
    """The impls' methods a call of the trait method `target` may run (see the module)."""
    method = resolver.lookups.symbol(target)
    trait = resolver.lookups.symbol(method.parent) if method is not None else None
    if method is None or trait is None or trait.declared_as != "trait":
        return []
    found: list[str] = []
    for impl_name in impls.get(trait.name, ()):
        impl = resolver.lookups.symbol(impl_name)
        if impl is None:
            continue
        written = impl.implements[0]
        resolved = resolver.absolute(written)
        if (resolved or joined(written)) != trait.qualified_name and (
            resolved is not None or written[-1] != trait.name
        ):
            continue
        own = resolver.lookups.members(impl_name, method.name)
        found.extend(own[:1])
    return found if len(found) <= MAX_OVERRIDES else []
