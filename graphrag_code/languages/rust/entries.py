"""`for (key, value) in self.items.iter_mut()`: the keys and values of a map.

A field, parameter or `let` of a map type (`items: IndexMap<Key, Item>`, `HashMap`,
`BTreeMap`), or a `type` alias of one (toml_edit's `type KeyValuePairs = IndexMap<Key,
Item>`), is also bound as its entries' parts: `items{0}` the key's type, `items{1}` the value's
(an alias as `{0}` / `{1}` of itself). A loop's or an adaptor closure's pair pattern over such
a place (`for (k, v) in &m`, `.iter().filter(|(_, v)| …).map(|(k, v)| …)`) binds each name to
its part of the place (`entry_place`, read by the resolver as the place's field `items{0}`, or
the alias's `{0}` where the field's type is an alias). Other iterables and patterns are not
read.
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import Binding
from ...parsing.treesitter import first_line, node_text
from .closure_calls import closure_call
from .loops import loop_parts
from .paths import Path, Scope
from .places import PLACE, place_path
from .syntax import type_path

__all__ = ["closure_entries", "entries", "entry_bindings", "entry_part", "is_entry", "loop_entries"]

_MAPS = frozenset({"HashMap", "BTreeMap", "IndexMap"})
_ITERATING = frozenset({"iter", "iter_mut", "into_iter", "drain", "iter_mut2"})
_SAME_ITEMS = frozenset(
    {"filter", "inspect", "skip", "take", "skip_while", "take_while", "rev", "peekable"}
)  # fmt: skip
"""Adaptors whose items are their receiver's: the pair they give is still the map's."""
_ADAPTORS = frozenset(
    {"map", "filter", "for_each", "any", "all", "find", "filter_map", "flat_map", "find_map",
     "take_while", "skip_while", "map_while", "position", "inspect", "try_for_each"}
)  # fmt: skip


def entry_part(index: int) -> str:
    """The suffix naming a map entry's key (0) or value (1): `items{1}`."""
    return f"{{{index}}}"


def is_entry(name: str) -> int | None:
    """0 or 1 for a name ending in `entry_part` (`items{1}`, `{0}`), else None."""
    for index in (0, 1):
        if name.endswith(entry_part(index)):
            return index
    return None


def entries(
    holder: str, name: str, declared: ts.Node | None, scope: Scope, self_type: Path | None,
    line: int,
) -> list[Binding]:  # fmt: skip
    """`items: IndexMap<Key, Item>`: `items{0}` bound to Key, `items{1}` to Item (behind
    references); nothing for another declared type."""
    node = declared
    while node is not None and node.type == "reference_type":
        node = node.child_by_field_name("type")
    if node is None or node.type != "generic_type":
        return []
    base = node.child_by_field_name("type")
    arguments = node.child_by_field_name("type_arguments")
    if base is None or arguments is None or node_text(base).rpartition("::")[2] not in _MAPS:
        return []
    types = [c for c in arguments.named_children if c.type != "lifetime"][:2]
    found = []
    for index, written in enumerate(types):
        dotted = type_path(written)
        if dotted is not None:
            found.append(
                Binding(holder, (name + entry_part(index),), scope.absolute(dotted, self_type),
                        "annotation", line)
            )  # fmt: skip
    return found


def entry_bindings(pattern: ts.Node, iterable: ts.Node, scope: str, line: int) -> list[Binding]:
    """A pair pattern's names (`(key, value)`, `&(_, v)`) bound to the key and value of the
    map place the iterable walks; none where it walks no place."""
    while pattern.type == "reference_pattern" and pattern.named_children:
        pattern = pattern.named_children[-1]
    parts = [c for c in pattern.children if c.type not in ("(", ")", ",")]  # `_` is unnamed
    if pattern.type != "tuple_pattern" or len(parts) != 2:
        return []
    place = _map_place(iterable)
    if place is None:
        return []
    found = []
    for index, part in enumerate(parts):
        while part.type in ("mut_pattern", "ref_pattern", "reference_pattern") and (
            part.named_children
        ):  # fmt: skip
            part = part.named_children[-1]
        if part.type == "identifier":
            value = (*place, entry_part(index))
            found.append(Binding(scope, (node_text(part),), value, "enter", line))
    return found


def closure_entries(parameters: ts.Node, scope: str) -> list[Binding]:
    """`.filter(|(_, value)| value.is_value())` over a map's pairs: its names' types."""
    names = parameters.named_children
    around = closure_call(parameters)
    if len(names) != 1 or around is None or around.method not in _ADAPTORS:
        return []
    receiver = around.receiver
    if _in_loop_head(around.call):
        return []  # the loop's own pattern names what its body sees (`loop_entries`)
    pattern = names[0].child_by_field_name("pattern") if names[0].type == "parameter" else names[0]
    if pattern is None:
        return []
    return entry_bindings(pattern, receiver, scope, first_line(parameters))


def _map_place(node: ts.Node) -> tuple[str, ...] | None:
    """The place a map iteration walks: `&self.items`, `m.iter()`, `self.items.iter_mut()
    .filter(…)`; None for another expression."""
    while True:
        while node.type == "reference_expression" and node.named_children:
            node = node.named_children[-1]
        if node.type != "call_expression":
            break
        function = node.child_by_field_name("function")
        field = function.child_by_field_name("field") if function is not None else None
        value = function.child_by_field_name("value") if function is not None else None
        if field is None or value is None:
            return None
        name = node_text(field)
        if name in _ITERATING:
            node = value
            break
        if name not in _SAME_ITEMS:
            return None
        node = value
    if node.type == "identifier":
        return (PLACE, node_text(node))
    return place_path(node)


def loop_entries(node: ts.Node, scope: str) -> list[Binding]:
    """`for (key, value) in self.items.iter_mut()`: from the loop's body on."""
    parts = loop_parts(node)
    if parts is None:
        return []
    pattern, value, line = parts
    found = entry_bindings(pattern, value, scope, line)
    if found or pattern.type != "tuple_pattern":
        return found
    # `for (mut key, value) in ….map(|(key, value)| …)`: each name shadowed, its type not read
    # (the closure's `key` is bound in the same function: `loops` reads plain names only)
    inner = [p.named_children[-1] for p in pattern.named_children if p.type == "mut_pattern"]
    return [
        Binding(scope, (node_text(name),), (), "opaque", line)
        for name in inner
        if name.type == "identifier"
    ]


def _in_loop_head(node: ts.Node) -> bool:
    """Whether a node lies in the iterable of a `for` loop (on the line its body starts)."""
    while node.parent is not None:
        parent = node.parent
        if parent.type == "for_expression":
            value = parent.child_by_field_name("value")
            return value is not None and value.start_byte <= node.start_byte < value.end_byte
        if parent.type in ("block", "closure_expression", "function_item"):
            return False
        node = parent
    return False
