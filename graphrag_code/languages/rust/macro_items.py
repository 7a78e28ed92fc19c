"""Items a macro invocation at module level declares: `trait_template! { pub trait X … }`.

A macro invoked where items stand (petgraph's `trait_template!`, num-traits' `float_const_impl!`)
expands to items of the module it is invoked in, so `use crate::visit::X` names that module's
file. Tree-sitter reads the macro's arguments as bare tokens; an item keyword (`trait`,
`struct`, `fn` …) followed by a name in the arguments' own level (not in nested braces, where a
trait's methods sit) names an item the expansion most likely declares. Each such name is bound
in the module as an untyped value (an "opaque" binding), which is how the resolver already
finds a `const` or `static` item's file for an import; it makes no symbol and no call target.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from ...parsing.treesitter import first_line, node_text

__all__ = ["macro_item_names"]

_ITEM_KEYWORDS = frozenset(
    {"trait", "struct", "enum", "union", "type", "fn", "const", "static", "mod"}
)


def macro_item_names(invocation: ts.Node) -> Iterator[tuple[str, int]]:
    """(name, line) of each item a module-level macro invocation's arguments declare at their
    own level; nothing for `macro_rules!` (its body is a pattern, not items)."""
    tree = next((c for c in invocation.named_children if c.type == "token_tree"), None)
    if tree is None:
        return
    keyword = False
    for token in tree.children:
        if keyword and token.type == "identifier":
            yield node_text(token), first_line(token)
        keyword = not token.is_named and token.type in _ITEM_KEYWORDS
