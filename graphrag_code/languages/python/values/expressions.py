"""Pure helpers over value-flow expressions (`model.Expr`): text for reasons, arguments
matched to parameters, a return read with arguments in place of parameters."""

from __future__ import annotations

from ....model import Expr

__all__ = [
    "argument_for", "is_decoration", "leaves_out", "of_anything", "render", "substituted",
]  # fmt: skip


def of_anything(shape: Expr) -> bool:
    """Whether a declared container's elements may be anything (`Any`, `object`)."""
    if shape[0] == "isinstance" and shape[1][0] == "name":
        return str(shape[1][-1]) in ("Any", "object")
    if shape[0] in ("list", "tuple", "set"):
        return any(of_anything(part) for part in shape[1])
    if shape[0] == "dict":
        return any(of_anything(value) for _, value in shape[1])
    return False


def leaves_out(shape: Expr) -> bool:
    """Whether a declared container's element types leave one out (`("opaque",)`)."""
    if shape[0] == "opaque":
        return True
    if shape[0] in ("list", "tuple", "set"):
        return any(leaves_out(part) for part in shape[1])
    if shape[0] == "dict":
        return any(leaves_out(key) or leaves_out(value) for key, value in shape[1])
    return False


def is_decoration(value: Expr) -> bool:
    while value[0] == "call":
        arguments = value[2]
        if len(arguments) != 1:
            return False
        value = arguments[0][1]
        if value[0] == "def":
            return True
    return False


def argument_for(
    arguments: tuple[tuple[int | str, Expr], ...], name: str, kind: str, index: int
) -> Expr | None:
    """The expression a call passes to parameter `name` of `kind` ("p" positional or
    keyword, "o" positional only, "k" keyword only) at positional `index` (its position less
    those the call fills itself), by itself: not inside `*args` / `**kwargs`."""
    for key, value in arguments:
        if (kind in "po" and key == index) or (kind in "pk" and key == name):
            return value
    return None


def substituted(expr: Expr, bound: dict[str, Expr]) -> Expr:
    """`expr` with each name of `bound` (and the attributes read from it) replaced by what it
    is bound to; lambdas and comprehensions are left as they are (they run later, or bind
    names of their own)."""
    if not bound:
        return expr
    if expr[0] == "name" and len(expr) >= 2 and expr[1] in bound:
        result = bound[expr[1]]
        for attribute in expr[2:]:
            result = ("attr", result, attribute)
        return result
    if expr[0] in ("lambda", "comp", "in"):
        return expr
    return tuple(
        substituted(part, bound) if isinstance(part, tuple) and part else part for part in expr
    )


def render(expr: Expr) -> str:
    """Short source-like text of an expression, for reasons."""
    if expr[0] == "name":
        return ".".join(expr[1:])
    if expr[0] == "call":
        return f"{render(expr[1])}(…)"
    if expr[0] == "attr":
        return f"{render(expr[1])}.{expr[2]}"
    return "…"
