"""Functions a crate's own `macro_rules!` declares from an argument:
`empty_visit_mut!(visit_boolean_mut, Formatted<bool>);` with `($name: ident, $t: ty) => { pub
fn $name<V>(…) {} }`.

A rule whose matcher is a plain list of bindings (`$name: ident, $t: ty`) and whose expansion
has `fn $name` at its own level (not inside an `impl`'s braces, where it would be a method)
declares, per invocation in the same file at module level, a function named by the argument
at that place. The function is filed where rust-analyzer files it, at the argument's token in
the invocation, so calls of it (toml_edit's `visit_boolean_mut(self, node)`) have a target.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import tree_sitter as ts

from ...parsing.treesitter import node_text

__all__ = ["declared_functions", "function_macros"]


def function_macros(items: Iterable[ts.Node]) -> dict[str, int]:
    """Per `macro_rules!` name among a module's items, the place of the argument one of its
    rules declares a `fn` by."""
    found: dict[str, int] = {}
    for item in items:
        if item.type != "macro_definition":
            continue
        name = next((c for c in item.named_children if c.type == "identifier"), None)
        for rule in item.named_children:
            if name is None or rule.type != "macro_rule":
                continue
            place = _fn_argument(rule)
            if place is not None:
                found.setdefault(node_text(name), place)
    return found


def declared_functions(invocation: ts.Node, macros: dict[str, int]) -> Iterator[ts.Node]:
    """The identifier token that names the function a module-level invocation declares."""
    macro = invocation.child_by_field_name("macro")
    tree = next((c for c in invocation.named_children if c.type == "token_tree"), None)
    if macro is None or tree is None or node_text(macro) not in macros:
        return
    groups: list[list[ts.Node]] = [[]]
    for token in tree.children[1:-1]:  # inside the brackets
        if token.type == ",":
            groups.append([])
        else:
            groups[-1].append(token)
    place = macros[node_text(macro)]
    if place < len(groups) and len(groups[place]) == 1 and groups[place][0].type == "identifier":
        yield groups[place][0]


def _fn_argument(rule: ts.Node) -> int | None:
    left = rule.child_by_field_name("left")
    right = rule.child_by_field_name("right")
    if left is None or right is None:
        return None
    binders = left.named_children
    if not binders or any(b.type != "token_binding_pattern" for b in binders):
        return None
    names = [node_text(b.named_children[0]) if b.named_children else "" for b in binders]
    previous: ts.Node | None = None
    for token in right.children:
        if (
            previous is not None and previous.type == "fn" and token.type == "metavariable"
            and node_text(token) in names
        ):  # fmt: skip
            return names.index(node_text(token))
        previous = token
    return None
