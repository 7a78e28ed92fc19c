"""Budgets and memo of Python value flow (jedi's `recursion.py` and `cache.py`): the steps a
linked file may spend, the depth of nested computations, and results kept for every file or
for this one, with what computing them consulted and cost."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass
from typing import NamedTuple

from ....linking.index import Lookups
from ....model import Block
from ..resolver import Resolver
from .records import SharedValues, Values

__all__ = [
    "END", "MAX_CALLEES", "MAX_CANDIDATES", "MAX_LEVEL", "MAX_POSSIBLE_CALLEES", "Budget", "Cut",
    "Where",
]  # fmt: skip


MAX_CALLEES = 8
"""At most this many targets for one call through values; more is left unresolved."""
MAX_POSSIBLE_CALLEES = 64
"""At most this many *possible* targets (tier `many`) for a call left unresolved because its
values were too many for `MAX_CALLEES` or came through too many callers: flask's
`setupmethod.wrapper_func` calls whichever of the 43 methods `@setupmethod` decorates."""
MAX_CANDIDATES = 300  # calls of that name examined to find them
_MAX_DEPTH = 24
# a parameter's values come from its callers' arguments, which may be parameters in turn:
# followed this many levels deep (a level is part of every cached result's key, so results
# do not depend on the order files are linked in)
MAX_LEVEL = 2
# evaluation steps per linked file, a reused result costing the steps computing it took (so
# the cut falls at the same place whatever the cache holds): Django's link stays as fast as
# with 40k steps counted without reuse, and keeps its edges within 12 of 156k (BENCHMARKS §2)
_MAX_STEPS = 5_000_000
END = 1 << 62  # a position after everything: a module's variables as functions see them
_NONE: frozenset[int] = frozenset()


class Where(NamedTuple):
    """Where an expression is evaluated: its scope, module, position and block.

    A named tuple, not a frozen dataclass: millions are made and hashed as parts of memo
    keys while Django links, and a tuple's construction and hash run in C (link CPU -7 %).
    It is only ever compared with other `Where`s, at fixed places in those keys."""

    scope: str
    module: str
    at: int
    block: Block
    # where only the assignments of one arm of an `if` (and those before the `if`) count:
    # (the `if`'s first byte, its last, the arm's block); see `_arm_end`
    window: tuple[int, int, Block] | None = None


class Cut(Exception):
    """The step budget of one file is spent: the rest stays unknown."""


class _Frame:
    """A computation under way: what was cut short below it, and how tall it grew."""

    __slots__ = ("cycles", "depth_cut", "height", "serial")

    def __init__(self, serial: int) -> None:
        self.serial = serial
        self.height = 0  # the height of the tallest computation below it
        self.cycles: set[int] = set()  # stack positions where cycles below it closed
        self.depth_cut = False  # something below it was cut short by the depth limit


@dataclass(frozen=True, slots=True)
class _LocalResult:
    """A result that holds where it was computed: at its depth, and while the computation at
    stack position `anchored` (when there is one, -1 otherwise) is the one numbered `anchor`
    (the computations below it stay the same while it is under way)."""

    values: Values
    modules: Set[str]
    names: Set[str]
    steps: int
    height: int
    cycles: frozenset[int]  # stack positions above it where cycles below it closed
    anchored: int
    anchor: int
    depth_cut: bool

    def holds(self, stack: list[_Frame]) -> bool:
        return self.anchored < 0 or (
            self.anchored < len(stack) and stack[self.anchored].serial == self.anchor
        )


class Budget:
    """The state of one file's evaluation: its step budget, the computations under way and the
    memo; the analysis's parts (names, parameters, containers, ...) build on it."""

    def __init__(self, resolver: Resolver, shared: SharedValues | None = None) -> None:
        self.resolver = resolver
        self.lookups: Lookups = resolver.lookups
        self.index = resolver.lookups.index
        # the computations under way, outermost first, and where each key is in that stack
        self._stack: list[_Frame] = []
        self._active: dict[object, int] = {}
        self._cache: SharedValues = shared if shared is not None else {}
        # results that hold only where they were computed (a cut below them depends on their
        # depth or on a computation still under way above them): reused at the same depth
        # while that computation is under way, for this file only
        self._held_here: dict[tuple[object, int], _LocalResult] = {}
        self._frames = 0  # computations begun, to tell one apart from a later one
        self._steps = 0
        self._level = 0
        # looking for possible targets only: parameters followed through more callers
        self._wide = False
        # what runs, not what the checkers see: `cast(T, v)` is v (`runtime_view`)
        self._uncast = False
        # the class whose instance `self` is in the methods of its bases, while an attribute
        # a base assigns is read on it (`attributes._inherited_values`)
        self._self_class: str | None = None
        # the function whose call site `callables` answers for (`results._foreign_lambda`)
        self._caller: str | None = None

    def _step(self) -> None:
        self._steps += 1
        if self._steps > _MAX_STEPS:
            raise Cut

    def _memo(self, key: object, compute: object) -> Values:
        """Compute once per key; a key met again while it is computed is unknown (a cycle).

        A result is kept for every file when it holds wherever it is computed: nothing below
        it was cut short, by a cycle or by the depth limit. Any other result is kept for this
        file, reused at the same depth while the computations its cycles closed at are under
        way (`_LocalResult`): sympy's deep chains meet the depth limit everywhere, and
        computing those results again at every use made one file link in 18 s (0.9 s now).

        A result reused from a cache costs what computing it cost (its steps, charged to this
        file's budget), and one that needed more depth than is left here is computed again
        (cut short, it finds some of its values, as it would in a file that met it here
        first): so a file links the same whether it is linked first or after others that
        filled the cache (a split between processes, an incremental run that relinks a few
        files)."""
        key = (self._level, self._wide, self._uncast, self._self_class, key)
        depth = len(self._stack)
        cached = self._cache.get(key)
        if cached is not None and depth + cached[4] <= _MAX_DEPTH:
            values, modules, names, steps, height = cached
            return self._reuse(values, modules, names, steps, height)
        local = self._held_here.get((key, depth))
        if local is not None and local.holds(self._stack):
            self._cut(local.cycles, depth_cut=local.depth_cut)
            return self._reuse(local.values, local.modules, local.names, local.steps, local.height)
        position = self._active.get(key)
        if position is not None:
            self._cut((position,), depth_cut=False)
            return Values.unknown()
        if depth > _MAX_DEPTH:
            self._cut((), depth_cut=True)
            return Values.unknown()
        self._frames += 1
        frame = _Frame(self._frames)
        self._active[key] = depth
        self._stack.append(frame)
        steps = self._steps
        self.lookups.begin()
        try:
            result: Values = compute()  # type: ignore[operator]
        finally:
            del self._active[key]
            self._stack.pop()
            modules, names = self.lookups.end()
        height, steps = frame.height, self._steps - steps
        self._grow(height)
        if not frame.cycles and not frame.depth_cut:  # the answer holds anywhere
            self._cache[key] = (result.copy(), modules, names, steps, height)
            return result
        above = frozenset(p for p in frame.cycles if p < depth) if frame.cycles else _NONE
        self._cut(above, depth_cut=frame.depth_cut)
        # where it holds: while the computations its cycles closed at are under way; one that
        # closed at itself could take another way round under another caller, so while the
        # one that asked for it is
        anchored = depth - 1 if depth in frame.cycles else max(above, default=-1)
        anchor = self._stack[anchored].serial if anchored >= 0 else 0
        self._held_here[(key, depth)] = _LocalResult(
            result.copy(), modules, names, steps, height, above, anchored, anchor, frame.depth_cut
        )
        return result

    def _reuse(
        self, values: Values, modules: Set[str], names: Set[str], steps: int, height: int
    ) -> Values:
        """A result computed before, charged as if computed again."""
        self._steps += steps
        if self._steps > _MAX_STEPS:
            raise Cut
        self._grow(height)
        self.lookups.replay(modules, names)
        return values.copy()

    def _cut(self, cycles: Iterable[int], depth_cut: bool) -> None:
        """Something below the computation under way was cut short: by cycles that closed at
        these stack positions, or by the depth limit."""
        if self._stack:
            frame = self._stack[-1]
            frame.cycles.update(cycles)
            frame.depth_cut = frame.depth_cut or depth_cut

    def _grow(self, height: int) -> None:
        """A computation of `height` ran (or was reused) inside the one under way."""
        if self._stack and self._stack[-1].height <= height:
            self._stack[-1].height = height + 1

    def _shallow(self, compute: Callable[[], Values]) -> Values:
        """`compute()` with parameters' values not looked for at their callers (unknown
        when the file's step budget runs out)."""
        level = self._level
        self._level = MAX_LEVEL
        try:
            return compute()
        except Cut:
            return Values.unknown()
        finally:
            self._level = level

    def _allow(self, steps: int) -> None:
        """Leave `steps` of the budget for what follows (a budget of its own)."""
        self._steps = _MAX_STEPS - steps
