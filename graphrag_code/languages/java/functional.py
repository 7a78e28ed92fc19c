"""Method references and lambdas as the parser records them.

A method reference (`Foo::bar`, `this::m`, `expr::m`, `Type::new`) is a call site whose
arity is unknown (the functional interface it is bound to decides): its value is a `Call`
whose one argument has the key `REFERENCE` instead of a position; the callee is
`Attribute(qualifier, name)`, or `Name(("new", T…))` for a constructor. Its line is its
name's, as javac places it.

A lambda's parameter without a declared type (`n -> n.text()`, `(k, v) -> …`) given as an
argument of a call is an "opaque" binding of the method around it, line the call's line,
whose value says where to find its type: (`LAMBDA`, argument position, parameter position,
parameter count, the call's callee…). The linker types it from the call (`lambdas`).
"""

from __future__ import annotations

import tree_sitter as ts

from ...model import OPAQUE, Attribute, Binding, Call, CallSite, Expr, Name
from ...parsing.treesitter import first_line, node_text
from .syntax import NEW, expression, type_dotted

__all__ = ["LAMBDA", "REFERENCE", "lambda_bindings", "reference_site"]

REFERENCE = "::"  # the key of a method reference's one argument: its arity is unknown
LAMBDA = "<lambda>"  # the head of a lambda parameter's binding value

_TYPE_QUALIFIERS = frozenset({"generic_type", "scoped_type_identifier", "type_identifier"})


def reference_site(node: ts.Node, scope: str) -> CallSite | None:
    """The call site of a `method_reference` node (None for `int[]::new` and the like)."""
    children = node.children
    if len(children) < 3 or not node.named_children:
        return None
    qualifier, last = node.named_children[0], children[-1]
    line = first_line(last)
    if last.type == "new":
        named = expression(qualifier)
        created = named.dotted if isinstance(named, Name) else type_dotted(qualifier)
        if created is None or created[-1].endswith("]"):
            return None
        value = Call(Name((NEW, *created)), ((REFERENCE, OPAQUE),))
        return CallSite(scope, (NEW, *created), line, at=node.start_byte, value=value)
    if last.type != "identifier":
        return None
    name = node_text(last)
    receiver: Expr
    if qualifier.type in _TYPE_QUALIFIERS:
        dotted = type_dotted(qualifier)
        receiver = Name(dotted) if dotted is not None else OPAQUE
    else:
        receiver = expression(qualifier)
    value = Call(Attribute(receiver, name), ((REFERENCE, OPAQUE),))
    head = receiver.dotted if isinstance(receiver, Name) else ("<expr>",)
    return CallSite(scope, (*head, name), line, at=node.start_byte, value=value)


def lambda_bindings(
    node: ts.Node, scope: str, sites: dict[tuple[int, int], CallSite]
) -> list[Binding]:
    """The bindings of a lambda's untyped parameters when it is an argument of a call whose
    site is known (`sites`: the call node's (start, end) byte -> its site)."""
    parameters = node.child_by_field_name("parameters")
    if parameters is None:
        return []
    if parameters.type == "identifier":
        names = [node_text(parameters)]
    elif parameters.type == "inferred_parameters":
        names = [node_text(c) for c in parameters.named_children if c.type == "identifier"]
    else:
        return []  # typed parameters are declarations of their own
    argument_list = node.parent
    call = argument_list.parent if argument_list is not None else None
    if argument_list is None or call is None or argument_list.type != "argument_list":
        return []
    site = sites.get((call.start_byte, call.end_byte))
    if site is None:
        return []
    position = next(i for i, c in enumerate(argument_list.named_children) if c.id == node.id)
    return [
        Binding(
            scope, (name,), (LAMBDA, str(position), str(at), str(len(names)), *site.callee),
            "opaque", site.line,
        )
        for at, name in enumerate(names)
    ]  # fmt: skip
