"""Type variables and their erasures, for overloads' names.

javac rejects two methods of one class whose parameter types have the same erasure ("name
clash"), so naming a parameter typed by a type variable by its erasure — the erasure of its
first bound, `Object` when it has none — gives distinct names to every pair of overloads it
accepts: `<T extends Collection<?>> T notEmpty(T c)` and `<T extends Map<?, ?>> T
notEmpty(T m)` are `notEmpty(Collection)` and `notEmpty(Map)`, where the text as written
gave both `notEmpty(T)`. The erasure, not `T`, shows in the name for that reason, and since
it does not depend on the siblings (a name does not change when an overload is added) nor on
what the variable is called (as in a JVM descriptor); the symbol's `signature` keeps the
source text, `T` and its bounds, for readers. Overload choice still reads the declared `T`
(a parameter any reference may fit, `overloads`), and overloads of one class never hide each
other (`resolver`), so a call reaches each overload its arguments may fit.
"""

from __future__ import annotations

import tree_sitter as ts

from ...parsing.treesitter import node_text
from .syntax import erased_text, type_dotted

__all__ = ["erased", "sees_outer_variables", "type_variables"]

_OBJECT = "Object"


def type_variables(node: ts.Node, outer: dict[str, str]) -> dict[str, str]:
    """The type variables in scope in a class or method declaration -> their erasures: its
    own (`<T extends Comparable<T>>`: T -> "Comparable") over those of `outer`."""
    declared = next((c for c in node.named_children if c.type == "type_parameters"), None)
    if declared is None:
        return outer
    bounds: dict[str, ts.Node | None] = {}
    for parameter in declared.named_children:
        named = next((c for c in parameter.named_children if c.type == "type_identifier"), None)
        if named is None:
            continue
        bound = next((c for c in parameter.named_children if c.type == "type_bound"), None)
        first = bound.named_children[0] if bound is not None and bound.named_children else None
        bounds[node_text(named)] = first
    found = dict(outer)
    for name in bounds:
        found[name] = _erasure(name, bounds, outer, set())
    return found


def _erasure(
    name: str, bounds: dict[str, ts.Node | None], outer: dict[str, str], seen: set[str]
) -> str:
    """A variable's erasure, through a bound that is another variable (`<U, V extends U>`)."""
    bound = bounds.get(name)
    if bound is None or name in seen:
        return _OBJECT
    dotted = type_dotted(bound)
    if dotted is not None and len(dotted) == 1:
        if dotted[0] in bounds and dotted[0] != name:
            return _erasure(dotted[0], bounds, outer, seen | {name})
        if dotted[0] in outer:
            return outer[dotted[0]]
    return erased_text(bound)


def erased(node: ts.Node | None, variables: dict[str, str], *, varargs: bool = False) -> str:
    """A parameter's type as an overload's name writes it (`syntax.erased_text`), a type
    variable as its erasure (`T[]` -> `Object[]`, `T...` with `T extends Item` -> `Item[]`)."""
    text = erased_text(node, varargs=varargs)
    base = text.removesuffix("[]" * text.count("[]"))
    dotted = type_dotted(node)
    if base in variables and dotted is not None and len(dotted) == 1:
        return variables[base] + text[len(base) :]
    return text


def sees_outer_variables(node: ts.Node) -> bool:
    """Whether a nested type sees its enclosing type's variables: an inner (non-static)
    class does; interfaces, enums, records and `static` classes do not."""
    if node.type != "class_declaration":
        return False
    modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
    return modifiers is None or "static" not in node_text(modifiers).split()
