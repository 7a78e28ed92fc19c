"""Which assignments of a name reach a use of it, from positions and blocks (`model.Block`):
the flow-sensitive part of Python value flow, as pure functions."""

from __future__ import annotations

from ....model import ArmEnd, Block, OneOf, ValueFlow

__all__ = ["is_join", "reaching"]

_EXCLUSIVE = 1  # the arms of one `if` / `match`
_PRIVATE = 2  # a comprehension's or a lambda's own names
_TERMINATES = 4  # an arm that always ends in `return` / `raise`


def reaching(flows: list[ValueFlow], use: tuple[int, Block] | None) -> tuple[list[ValueFlow], bool]:
    """The assignments that may reach a use, and whether the value before them may too.

    The latest assignment whose block encloses the use dominates it; assignments after it in
    branches the use is not part of may have run instead. Arms of one `if` exclude each
    other; names bound in a comprehension or lambda stay inside it. `use` is the use's
    (position, block); None for a use after the scope ran (a closure): every assignment
    counts.
    """
    plain = [f for f in flows if len(f.target) == 1]
    if use is None:  # every assignment counts: an `if`'s join repeats its arms' own
        return [f for f in plain if not _private(f.block) and not is_join(f)], True
    at, block = use
    before = [
        f
        for f in plain
        if f.at < at
        and not _excluded(f.block, block)
        and _visible(f.block, block)
        and not _left_by_exit(f.block, block)
    ]
    dominating = [f for f in before if block[: len(f.block)] == f.block]
    if not dominating:
        return before, True
    latest = max(dominating, key=lambda f: f.at)
    return [latest, *[f for f in before if f.at > latest.at]], False


def is_join(flow: ValueFlow) -> bool:
    """Whether a flow is the join at the end of an `if`/`else` (`OneOf` of `ArmEnd`s): what
    its arms left, which a reading of every assignment has already."""
    value = flow.value
    return (
        isinstance(value, OneOf)
        and bool(value.options)
        and all(isinstance(part, ArmEnd) for part in value.options)
    )


def _excluded(a: Block, b: Block) -> bool:
    for x, y in zip(a, b, strict=False):
        if x == y:
            continue
        return x >> 8 == y >> 8 and bool(x & _EXCLUSIVE) and bool(y & _EXCLUSIVE)
    return False


def _left_by_exit(flow: Block, use: Block) -> bool:
    """Whether an assignment sits in an arm the use is outside of that ends in `return` or
    `raise`: the function leaves before reaching the use from there."""
    for position, entry in enumerate(flow):
        if position < len(use) and use[position] == entry:
            continue
        return any(later & _TERMINATES for later in flow[position:])
    return False


def _visible(flow: Block, use: Block) -> bool:
    """A name bound inside a comprehension or lambda is seen only inside it."""
    for position, entry in enumerate(flow):
        if entry & _PRIVATE and (position >= len(use) or use[position] != entry):
            return False
    return True


def _private(block: Block) -> bool:
    return any(entry & _PRIVATE for entry in block)
