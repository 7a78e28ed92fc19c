"""Calls javac writes that the source does not: the implicit `super()`.

A constructor whose body does not start with `this(…)` / `super(…)` calls its superclass's
no-argument constructor first (javac's Attr inserts `super()` at the body's `{`), and a class
with no constructor gets a default one that does the same (placed at the class's name). Both
become call sites of the callee `IMPLICIT_SUPER` on those lines, so the graph says what runs
when a subclass is built: `Sub(int)` → `Base()`.

Where the default constructor's call comes from: the class itself. `new Sub()` of a class
without constructors is already an edge to the class (the graph's stand-in for its default
constructor, as javac's oracle points a default constructor at its class), so the class's
edge to `Base()` closes the chain `caller → Sub → Base()` that impact and callers walk; an edge
from every `new Sub()` site to `Base()` instead would say those sites call `Base()` directly,
which javac does not, and would repeat per site. Only a superclass of the repository gets the
edge (the linker drops the rest: every class's `Object()` says nothing); an enum's, a
record's and an anonymous class's constructors have no such call here (javac's go to `Enum`
and `Record`; an anonymous class's is the `new` around it).
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import Call, CallSite, Name
from ...parsing.treesitter import first_line

__all__ = ["IMPLICIT_SUPER", "constructor_super", "default_super"]

IMPLICIT_SUPER = "<super>"
"""The callee of an implicit `super()`: a keyword-like name no source call has."""

_CONSTRUCTORS = frozenset({"constructor_declaration", "compact_constructor_declaration"})
_SKIPPED = frozenset({"line_comment", "block_comment"})


def _site(scope: str, line: int, at: int) -> CallSite:
    return CallSite(scope, (IMPLICIT_SUPER,), line, at=at, value=Call(Name((IMPLICIT_SUPER,)), ()))


def _extends(owner: ts.Node | None) -> bool:
    """A class declaration with an `extends` clause (only those can reach a repository's
    constructor)."""
    return (
        owner is not None
        and owner.type == "class_declaration"
        and owner.child_by_field_name("superclass") is not None
    )


def constructor_super(node: ts.Node, scope: str, owner: ts.Node | None) -> CallSite | None:
    """The implicit `super()` of constructor `node` (named `scope`) of class `owner`, if any."""
    body = node.child_by_field_name("body")
    if node.type != "constructor_declaration" or body is None or not _extends(owner):
        return None
    first = next((c for c in body.named_children if c.type not in _SKIPPED), None)
    if first is not None and first.type == "explicit_constructor_invocation":
        return None
    return _site(scope, first_line(body), body.start_byte)


def default_super(node: ts.Node, qualified: str) -> CallSite | None:
    """The default constructor's `super()` of class `node` (named `qualified`) when it
    declares no constructor: a call from the class, on its name's line."""
    body = node.child_by_field_name("body")
    name = node.child_by_field_name("name")
    if body is None or name is None or not _extends(node):
        return None
    if any(member.type in _CONSTRUCTORS for member in body.named_children):
        return None
    return _site(qualified, first_line(name), node.start_byte)
