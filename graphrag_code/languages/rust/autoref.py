"""`self.m()` in a `&mut self` method: a trait's `&self` method runs through the `&mut T` impl.

Method lookup tries the receiver's own type before it dereferences: `self` is a `&mut Self`
there, so for a `&self` method `m` of a trait implemented for every `&mut T` (bytes'
`impl<T: Buf + ?Sized> Buf for &mut T`, std's `AsRef`, `Display`, `Iterator`…) the compiler
picks `<&mut Self as Trait>::m` (by `&` of `self`) before `<Self as Trait>::m` (by `&` of
`*self`): `fn copy_to_bytes(&mut self) { self.remaining() }` in `Buf` runs the `&mut T` impl's
`remaining`, which forwards to `Self`'s. That impl's method is the callee where it is in the
graph; otherwise (a macro made it, or std's) there is no certain one: the linker makes the
call's dispatch edges only (`resolver.UNSURE`).
"""

from __future__ import annotations

import re

from ...model import Attribute, Call, Name, Symbol
from .dispatch import TraitImpls
from .paths import joined
from .resolver import RustResolver

__all__ = ["through_mut_ref"]

_MUT_SELF = re.compile(r"\(\s*&\s*(?:'\w+\s+)?mut\s+self\b")
_REF_SELF = re.compile(r"\(\s*&\s*(?:'\w+\s+)?self\b")
# `impl<T: Buf + ?Sized> Buf for &mut T`: the impl's type is `&mut` one of its parameters
_FOR_MUT_PARAMETER = re.compile(r"^(?:unsafe\s+)?impl\s*<(?P<params>.*?)>.*\bfor\s+&\s*"
                                r"(?:'\w+\s+)?mut\s+(?P<name>[A-Za-z_]\w*)\s*(?:where\b|\{|$)",
                                re.S)  # fmt: skip
# std's traits implemented for every `&mut T` whose `T` implements them, with `&self` methods
_STD_MUT_REF_TRAITS = frozenset({
    "AsRef", "Debug", "Display", "Hash", "PartialEq", "PartialOrd", "Ord", "Iterator",
    "DoubleEndedIterator", "ExactSizeIterator", "Hasher", "Deref",
})  # fmt: skip


def through_mut_ref(
    resolver: RustResolver, call: Call, scope: str, target: str, impls: TraitImpls
) -> tuple[str | None] | None:
    """None where the module's rule does not apply; else (the `&mut T` impl's method, or
    None where the graph has none)."""
    callee = call.callee
    if not (isinstance(callee, Attribute) and callee.value == Name(("self",))):
        return None
    method = resolver.lookups.symbol(target)
    caller = resolver.lookups.symbol(scope)
    if method is None or caller is None or not _MUT_SELF.search(caller.signature):
        return None
    if not _REF_SELF.search(method.signature) or _MUT_SELF.search(method.signature):
        return None
    trait = _trait_of(resolver, method)
    if trait is None:
        return None
    name = trait.rpartition("::")[2]
    if "::" not in trait:
        return (None,) if name in _STD_MUT_REF_TRAITS else None
    for impl_name in impls.get(name, ()):
        impl = resolver.lookups.symbol(impl_name)
        if impl is None or not _blanket_over_mut(impl):
            continue
        written = impl.implements[0]
        if (resolver.absolute(written) or joined(written)) != trait:
            continue
        own = resolver.lookups.members(impl_name, method.name)
        return (own[0] if own else None,)
    return None


def _trait_of(resolver: RustResolver, method: Symbol) -> str | None:
    """The trait `method` belongs to: its parent (a trait's own method), or the trait its impl
    implements (`Buf` for `impl Buf for Bytes`; std's by its last name)."""
    parent = resolver.lookups.symbol(method.parent)
    if parent is None:
        return None
    if parent.declared_as == "trait":
        return parent.qualified_name
    if parent.declared_as == "impl" and parent.implements:
        written = parent.implements[0]
        return resolver.absolute(written) or written[-1]  # std's by its last name
    return None


def _blanket_over_mut(impl: Symbol) -> bool:
    """`impl<T: Trait + ?Sized> Trait for &mut T`."""
    found = _FOR_MUT_PARAMETER.match(impl.signature.strip())
    if found is None:
        return False
    params = {p.split(":")[0].strip() for p in found["params"].split(",")}
    return found["name"] in params
