"""Calls that run a callable they are given later (Python): `task_group.start_soon(wrap, p)`,
`executor.submit(fn, a)`, `loop.call_soon(cb, x)`. Value flow reads each as the later call it
makes (`wrap(p)`), so what the callable receives is known."""

from __future__ import annotations

from ...model import Arguments, Attribute, Expr, Name

__all__ = ["spawned_call"]

# method -> the position of the callable it is given; the positional arguments after it are
# what the callable is called with
_SPAWNERS = {
    "start_soon": 0, "start_task_soon": 0, "submit": 0, "call_soon": 0,
    "call_soon_threadsafe": 0, "run_sync": 0, "to_thread": 0, "run_in_threadpool": 0,
    "run_in_executor": 1, "call_later": 1, "call_at": 1,
}  # fmt: skip


def spawned_call(callee: Expr, arguments: Arguments) -> tuple[Expr, Arguments] | None:
    """The later call a spawning call makes (`start_soon(wrap, p)` -> `wrap(p)`): the
    callable it is given by name and the positional arguments after it, renumbered; None for
    any other call, or one that passes the callable nothing."""
    if isinstance(callee, Name):
        method = callee.dotted[-1]
    elif isinstance(callee, Attribute):
        method = callee.name
    else:
        return None
    position = _SPAWNERS.get(method)
    if position is None:
        return None
    spawned = next((value for key, value in arguments if key == position), None)
    if not isinstance(spawned, Name):
        return None
    passed = tuple(
        (key - position - 1, value)
        for key, value in arguments
        if isinstance(key, int) and key > position
    )
    stars = tuple((key, value) for key, value in arguments if key == "*")
    return (spawned, passed + stars) if passed or stars else None
