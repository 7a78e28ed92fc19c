"""The type of a map entry's key or value at a place (`entries`), for the resolver.

`self.items{1}` (a loop's `value` in `for (key, value) in self.items.iter_mut()`) is the
field's own binding `items{1}` where the field is declared as a map, else the `{1}` of the
`type` alias the field is declared as (`items: KeyValuePairs`, an alias in another file); a
local's `m{1}` is its own binding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import Attribute, Expr, Name
from .entries import entry_part

if TYPE_CHECKING:
    from .resolver import RustResolver

__all__ = ["entry_type"]


def entry_type(
    resolver: RustResolver, value: Expr, index: int, scope: str, line: int, depth: int
) -> str | None:
    """The type of part `index` (0 the key, 1 the value) of the entries of the map `value`."""
    part = entry_part(index)
    if isinstance(value, Name) and len(value.dotted) == 1:
        return resolver._local_type(value.dotted[0] + part, scope, line, depth + 1)
    if not isinstance(value, Attribute):
        return None
    held = resolver.type_of(value.value, scope, line, depth + 1)
    if held is None:
        return None
    found = resolver._field_type(held, value.name + part)
    if found is not None:
        return found
    written = resolver._field_written(held, value.name)
    alias = _alias(resolver, written, held) if written is not None else None
    return resolver._field_type(alias, part) if alias is not None else None


def _alias(resolver: RustResolver, written: tuple[str, ...], holder: str) -> str | None:
    """The `type` alias a field's written type names, resolved in the field's own file."""
    lookups = resolver.lookups
    module = lookups.index.symbol_module.get(holder)
    info = lookups.module(module) if module is not None else None
    if info is None:
        return None
    other = resolver
    if info.parsed.path != resolver.parsed.path:
        other = type(resolver)(info.parsed, lookups, resolver.project)
        other._scopes = resolver._scopes
    found = other.resolve(written, holder, other.owner_type(holder))
    symbol = lookups.symbol(found) if found is not None else None
    return found if symbol is not None and symbol.declared_as == "type alias" else None
