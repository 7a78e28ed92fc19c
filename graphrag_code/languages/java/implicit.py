"""What javac writes that the source does not: the implicit `super()`, a record's accessors.

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

A record `record Point(int x, int y)` has the accessors `x()` and `y()` unless its body
declares them, and its canonical constructor unless the body declares it (compact or in
full). The accessors become nodes (`declared_as` "accessor", at their component, the type as
their result): `p.x()` is a call of a method that exists, and the node's id is the one a
written `x()` gets (`pkg.Point.x`), so writing it out later keeps the id and its edges. The
canonical constructor is the record's class, as a default constructor is (`calls`), and as
javac's oracle places it; the class's node carries the components as its parameters.
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import Call, CallSite, Name
from ...parsing.treesitter import first_line

__all__ = [
    "IMPLICIT_SUPER",
    "component_name",
    "constructor_super",
    "default_super",
    "record_accessors",
]

IMPLICIT_SUPER = "<super>"
"""The callee of an implicit `super()`: a keyword-like name no source call has."""

_CONSTRUCTORS = frozenset({"constructor_declaration", "compact_constructor_declaration"})
_SKIPPED = frozenset({"line_comment", "block_comment"})
_PARAMETERS = frozenset({"formal_parameter", "spread_parameter"})


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


def component_name(component: ts.Node) -> ts.Node | None:
    """The name node of a record component (`int x`, `int... xs`)."""
    if component.type == "spread_parameter":
        declarator = next(
            (c for c in component.named_children if c.type == "variable_declarator"), None
        )
        return None if declarator is None else declarator.child_by_field_name("name")
    return component.child_by_field_name("name")


def record_accessors(
    owner: ts.Node | None, members: list[ts.Node]
) -> list[tuple[ts.Node, ts.Node]]:
    """(component, its name) of each component of record `owner` whose accessor its body
    `members` do not declare."""
    if owner is None or owner.type != "record_declaration":
        return []
    declared = set()
    for member in members:
        params = member.child_by_field_name("parameters")
        name = member.child_by_field_name("name")
        if (
            member.type == "method_declaration"
            and name is not None
            and params is not None
            and not any(p.type in _PARAMETERS for p in params.named_children)
        ):
            declared.add(name.text)
    components = owner.child_by_field_name("parameters")
    return [
        (component, name)
        for component in (components.named_children if components is not None else ())
        if component.type in _PARAMETERS
        and (name := component_name(component)) is not None
        and name.text not in declared
    ]
