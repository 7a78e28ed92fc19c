"""Which overloads a call may run: by arity, then by the types of the arguments where they
are evident (literals, declared names), as javac's phases do without subtyping: an exact
type beats a widening or a boxing, which beats a parameter any reference fits (`Object`, a
type variable). Pure: types as the parser writes them (simple names, `[]` for arrays)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Argument", "Candidate", "choose", "may_run"]

_WIDENING = {
    "byte": ("short", "int", "long", "float", "double"),
    "short": ("int", "long", "float", "double"),
    "char": ("int", "long", "float", "double"),
    "int": ("long", "float", "double"),
    "long": ("float", "double"),
    "float": ("double",),
}
_BOXES = {
    "int": "Integer", "long": "Long", "short": "Short", "byte": "Byte", "char": "Character",
    "float": "Float", "double": "Double", "boolean": "Boolean",
}  # fmt: skip
_UNBOXES = {box: primitive for primitive, box in _BOXES.items()}
_ANY_REFERENCE = frozenset({"Object", "Serializable", "Comparable"})
# the supertypes of the JDK's types an argument most often has (an exact hierarchy: any other
# reference parameter never fits them)
_JDK_SUPERS = {
    "String": frozenset({"CharSequence", "Comparable", "Serializable", "Object"}),
    "StringBuilder": frozenset({"CharSequence", "Appendable", "Serializable", "Object"}),
    **{
        box: frozenset({"Comparable", "Serializable", "Object"})
        | ({"Number"} if box not in ("Boolean", "Character") else set())
        for box in _UNBOXES
    },
}


@dataclass(frozen=True)
class Candidate:
    name: str  # its qualified name
    types: tuple[str, ...]  # parameter types as written (`String[]` for varargs)
    varargs: bool = False


@dataclass(frozen=True)
class Argument:
    """An argument's type: its simple name and, where its whole hierarchy is known, the
    simple names of its supertypes (None: it may have others)."""

    name: str
    supers: frozenset[str] | None = None


def _fits(argument: Argument | None, parameter: str) -> int:
    """How well an argument of a type fits a parameter: 3 exactly, 2 by widening, (un)boxing
    or a supertype, 1 maybe (unknown argument, a reference parameter), 0 never."""
    if argument is None:
        return 1
    is_variable = len(parameter) <= 2 and parameter[:1].isupper()  # `T`, `E2`
    supers = argument.supers if argument.supers is not None else _JDK_SUPERS.get(argument.name)
    if supers is not None and argument.name != parameter and parameter not in _BOXES:
        if parameter in supers:
            return 2
        if not is_variable and argument.name not in _UNBOXES:
            return 0
    return _fits_name(argument.name, parameter, is_variable)


def _fits_name(argument: str, parameter: str, is_variable: bool) -> int:
    if argument == parameter:
        return 3
    if argument in _BOXES:  # a primitive
        if parameter in _WIDENING.get(argument, ()) or parameter == _BOXES[argument]:
            return 2
        return 1 if parameter in _ANY_REFERENCE or parameter == "Number" or is_variable else 0
    if parameter in _BOXES:  # a primitive parameter, a reference argument
        unboxed = _UNBOXES.get(argument)
        return 2 if unboxed == parameter or parameter in _WIDENING.get(unboxed or "", ()) else 0
    if argument == "null":
        return 1
    if argument in _UNBOXES:  # a box, a reference parameter other than its supertypes
        return 1 if is_variable else 0
    if parameter == "String":
        return 0
    return 1


def may_run(candidate: Candidate, arguments: Sequence[Argument | None]) -> bool:
    """Whether a call with these arguments may run `candidate` at all: its arity, and no
    argument of a type its parameter never takes (`choose` keeps a lone candidate anyway)."""
    return _arity(candidate, len(arguments)) and _score(candidate, arguments) >= 0


def _arity(candidate: Candidate, count: int) -> bool:
    size = len(candidate.types)
    return count == size or (candidate.varargs and count >= size - 1)


def _score(candidate: Candidate, arguments: Sequence[Argument | None]) -> int:
    total = 0
    for at, argument in enumerate(arguments):
        if candidate.varargs and at >= len(candidate.types) - 1:
            last = candidate.types[-1]
            fit = max(_fits(argument, last.removesuffix("[]")), _fits(argument, last))
        else:
            fit = _fits(argument, candidate.types[at])
        if fit == 0:
            return -1
        total += fit
    return total


def choose(
    candidates: Sequence[Candidate], arguments: Sequence[Argument | None]
) -> list[Candidate]:
    """The candidates a call with arguments of these types (None: unknown) may run: one
    where the call says which, several where it does not, none where no arity fits."""
    if len(candidates) == 1:
        return list(candidates)
    fitting = [c for c in candidates if _arity(c, len(arguments))]
    if len(fitting) <= 1:
        return fitting
    # javac tries the calls without varargs first: an array parameter takes an array then
    fixed = [
        (score, c)
        for c in fitting
        if len(c.types) == len(arguments)
        and (score := _score(Candidate(c.name, c.types), arguments)) >= 0
    ]
    scored = fixed or [(score, c) for c in fitting if (score := _score(c, arguments)) >= 0]
    if not scored:
        return fitting
    best = max(score for score, _ in scored)
    return [c for score, c in scored if score == best]
