"""Pure helpers over value-flow expressions (`model.Expr`): text for reasons, arguments
matched to parameters, a return read with arguments in place of parameters (`Placed`)."""

from __future__ import annotations

from dataclasses import dataclass

from ....model import (
    Arguments,
    Attribute,
    Call,
    Comprehension,
    Definition,
    DictDisplay,
    Display,
    Expr,
    InstanceOf,
    LambdaExpr,
    Name,
    Opaque,
)
from .budget import Where

__all__ = [
    "Placed", "argument_for", "is_decoration", "leaves_out", "of_anything", "render",
    "substituted",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Placed(Expr):
    """An argument put in place of a parameter (`results._through`): evaluated where the
    call passed it, `why` its reason."""

    where: Where
    expr: Expr
    why: str


def of_anything(shape: Expr) -> bool:
    """Whether a declared container's elements may be anything (`Any`, `object`)."""
    match shape:
        case InstanceOf(Name(dotted)):
            return dotted[-1] in ("Any", "object")
        case Display(_, elements):
            return any(of_anything(part) for part in elements)
        case DictDisplay(pairs):
            return any(of_anything(value) for _, value in pairs)
    return False


def leaves_out(shape: Expr) -> bool:
    """Whether a declared container's element types leave one out (`OPAQUE`)."""
    match shape:
        case Opaque():
            return True
        case Display(_, elements):
            return any(leaves_out(part) for part in elements)
        case DictDisplay(pairs):
            return any(
                (key is not None and leaves_out(key)) or leaves_out(value) for key, value in pairs
            )
    return False


def is_decoration(value: Expr) -> bool:
    """Whether a value is decorators applied to a definition (`d(e(Definition(f)))`)."""
    while isinstance(value, Call):
        if len(value.arguments) != 1:
            return False
        value = value.arguments[0][1]
        if isinstance(value, Definition):
            return True
    return False


def argument_for(arguments: Arguments, name: str, kind: str, index: int) -> Expr | None:
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
    if isinstance(expr, Name):
        head, *attributes = expr.dotted
        if head not in bound:
            return expr
        result = bound[head]
        for attribute in attributes:
            result = Attribute(result, attribute)
        return result
    if isinstance(expr, LambdaExpr | Comprehension | Placed):
        return expr
    parts = [_substituted_part(getattr(expr, name), bound) for name in expr.__slots__]
    return type(expr)(*parts)


def _substituted_part(part: object, bound: dict[str, Expr]) -> object:
    if isinstance(part, Expr):
        return substituted(part, bound)
    if isinstance(part, tuple):
        return tuple(_substituted_part(item, bound) for item in part)
    return part


def render(expr: Expr) -> str:
    """Short source-like text of an expression, for reasons."""
    match expr:
        case Name(dotted):
            return ".".join(dotted)
        case Call(callee, _):
            return f"{render(callee)}(…)"
        case Attribute(value, name):
            return f"{render(value)}.{name}"
    return "…"
