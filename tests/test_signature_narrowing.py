"""Where the `signature` tier gives an edge (issue 50, stop 65). A function that never returns
fits any result only as a placeholder whose body is one `raise` (`empty_send`); trio's test
helper `raiser1`, which raises through another function, fitted `Callable[[], bool]`. A type
many functions fit (starlette's `Send`, 9) keeps an edge to each: those possible edges are how
`path` reaches an ASGI app through its middleware."""

from __future__ import annotations

from graphrag_code.languages.python.dispatch import only_raises

from .linking_helpers import assert_calls

_SINKS = """\
from typing import Awaitable, Callable


class Message:
    pass


Send = Callable[[Message], Awaitable[None]]


async def relay(send: Send) -> None:
    await send(Message())

{sinks}
SINKS = [{names}]
"""


def _sinks(count: int) -> str:
    names = [f"sink{i}" for i in range(count)]
    sinks = "".join(f"\nasync def {name}(message: Message) -> None:\n    pass\n" for name in names)
    return _SINKS.format(sinks=sinks, names=", ".join(names))


def test_a_type_many_functions_fit_gives_an_edge_to_each() -> None:
    assert_calls(
        {"m.py": _sinks(9)},
        ("m.relay", "m.Message", "exact"),
        *[("m.relay", f"m.sink{i}", "signature") for i in range(9)],
    )


_NEVER = """\
from typing import Callable, NoReturn


def raiser() -> NoReturn:
    fail()


def fail() -> NoReturn:
    raise ValueError


def placeholder() -> NoReturn:
    \"\"\"Stands for a check not given.\"\"\"
    raise RuntimeError("no check")


HELPERS = [raiser, placeholder]


def wait_for(check: Callable[[], bool]) -> bool:
    return check()


def get_exc(raise_it: Callable[[], NoReturn]) -> None:
    raise_it()
"""


def test_a_function_that_never_returns_fits_another_result_only_as_a_placeholder() -> None:
    # `raiser` fits its own type (`get_exc`'s), not `wait_for`'s `Callable[[], bool]`
    assert_calls(
        {"m.py": _NEVER},
        ("m.raiser", "m.fail", "exact"),
        ("m.wait_for", "m.placeholder", "signature"),
        ("m.get_exc", "m.raiser", "signature"),
        ("m.get_exc", "m.placeholder", "signature"),
    )


def test_a_placeholder_is_a_body_of_one_raise() -> None:
    assert only_raises("async def empty_send(message) -> NoReturn:\n    raise RuntimeError\n")
    assert only_raises('def f():\n        """Why."""\n        raise KeyError("k")\n')
    assert not only_raises("def f():\n    g()\n")
    assert not only_raises("async def f():\n    await g()\n    raise RuntimeError\n")
    assert only_raises("@guard\n    def f():\n        raise KeyError\n")  # decorated, in a class
    assert not only_raises("def f(:\n    raise X\n")  # unparsable: no placeholder
