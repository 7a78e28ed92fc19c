"""A member of a class looked up along its MRO: the rule every language's resolver shares.

The first class of the MRO that defines `name` answers (an accessor read on an instance gives
the value it returns); else the first whose body or methods assign it (`self.name = …`, its
value inferred); else, when one external base is known, that base's member."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model import Binding
from .index import Lookups
from .targets import NOT_HERE, External, SymbolRef, Target, mark

__all__ = ["member_along_mro"]


def member_along_mro(
    classes: Iterable[str],
    name: str,
    lookups: Lookups,
    *,
    instance: bool,
    accessor_value: Callable[[str], object],
    binding_value: Callable[[list[Binding], str], Target | None],
    external_base: Callable[[], External | None],
) -> Target | None:
    """`name` on the first of `classes` (an MRO) that has it. `accessor_value`: what reading
    a member on an instance gives (`NOT_HERE` when it is not an accessor); `binding_value`:
    what an assigned attribute holds; `external_base`: the one external base, if any."""
    assigned = False  # by one of our classes, in a way no binding records
    for cls in classes:
        members = lookups.members(cls, name)
        if members:
            if instance:
                value = accessor_value(members[0])
                if value is not NOT_HERE:
                    return value  # type: ignore[return-value]
            return SymbolRef(members[0])
        bindings = lookups.attribute_bindings(cls, name)
        if bindings:
            return mark(binding_value(bindings, cls), True)
        assigned = assigned or bool(lookups.attribute_flows(cls, name))
    if assigned:
        # `self.console = console if console is not None else get_console()`: value flow's
        # to follow, not the external base's (`abc.ABC.console`)
        return None
    external = external_base()
    if external is not None:
        return External((*external.dotted, name), inferred=True)
    return None
