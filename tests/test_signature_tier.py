"""What the `signature` tier matches (issue 50). A method is a callable value only bound: taken
off what may be an instance of its class, its `self` dropped. rich's `cell_len(text,
_cell_len: Callable[[str], int])` reached `NullFile.write(self, text: str) -> int` though no
`NullFile` method is ever passed there, only `file.write` of an `IO[str]`. A type of nothing
but `Any` says nothing to match on (click's `func: Callable[[Any], Any]`)."""

from __future__ import annotations

from .linking_helpers import assert_calls

_FILES = """\
from typing import Callable


class NullFile:
    def write(self, text: str) -> int:
        return 0


class Console:
    def __init__(self, file: NullFile, sink):
        self.file = file
        self.sink = sink.write


def cached_len(text: str) -> int:
    return len(text)


def cell_len(text: str, measure: Callable[[str], int] = cached_len) -> int:
    return measure(text)
"""


def test_a_method_is_a_callable_value_only_bound_off_an_instance_of_its_class() -> None:
    # `sink.write` (a parameter nothing says is a NullFile) does not bind `NullFile.write`:
    # it is no callee of `measure` however its signature fits
    assert_calls(
        {"m.py": _FILES},
        ("m.cell_len", "m.cached_len", "inferred"),
    )


def test_a_method_bound_off_an_instance_of_its_class_fits_a_callable_type() -> None:
    assert_calls(
        {
            "m.py": _FILES + "\n\ndef use(console: Console) -> Callable[[str], int]:\n"
            "    return console.file.write\n"
        },
        ("m.cell_len", "m.cached_len", "inferred"),
        ("m.cell_len", "m.NullFile.write", "signature"),
    )


def test_a_callable_type_of_any_matches_no_function() -> None:
    # `self.func` holds whatever callers of `make` pass: `parse`, which fits `Callable[[Any],
    # Any]` as any function of one argument does, is no possible callee for that
    assert_calls(
        {
            "m.py": "from typing import Any, Callable\n\n\n"
            "def parse(value: Any) -> Any:\n    return value\n\n\n"
            "PARSERS = [parse]\n\n\n"
            "class FuncType:\n"
            "    def __init__(self, func: Callable[[Any], Any]) -> None:\n"
            "        self.func = func\n\n"
            "    def convert(self, value):\n        return self.func(value)\n\n\n"
            "def make(func):\n    return FuncType(func)\n"
        },
        ("m.make", "m.FuncType.__init__", "exact"),
    )


_SEND = """\
from typing import Awaitable, Callable


class Message:
    pass


Send = Callable[[Message], Awaitable[None]]


async def relay(send: Send) -> None:
    await send(Message())


async def other(send: Send) -> None:
    await send(Message())


async def serve(out: Send, forward: Callable[[Send], Awaitable[None]]) -> None:
    async def wrapped(message: Message) -> None:
        await out(message)

    await {passed_to}(wrapped)
"""


def test_a_nested_function_passed_to_a_named_function_is_no_other_callee_of_its_type() -> None:
    # starlette's inner ASGI app goes only to `wrap_app_handling_exceptions(app, request)`:
    # value flow follows it to `relay`'s parameter; `other`'s `send` never holds it
    assert_calls(
        {"m.py": _SEND.format(passed_to="relay")},
        ("m.other", "m.Message", "exact"),
        ("m.relay", "m.Message", "exact"),
        ("m.relay", "m.serve.wrapped", "inferred"),
        ("m.serve", "m.relay", "exact"),
    )


def test_a_nested_function_passed_to_a_value_may_be_any_callee_of_its_type() -> None:
    # `forward` may be any function taking a `Send`: whatever it does with `wrapped`, value
    # flow cannot follow, so each call of a `Send` may run it
    assert_calls(
        {"m.py": _SEND.format(passed_to="forward")},
        ("m.other", "m.Message", "exact"),
        ("m.relay", "m.Message", "exact"),
        ("m.other", "m.serve.wrapped", "signature"),
        ("m.relay", "m.serve.wrapped", "signature"),
        ("m.serve.wrapped", "m.serve.wrapped", "signature"),
    )


def test_a_special_method_other_than_call_is_no_callable_value() -> None:
    # `async with` runs `__aenter__`; only `__call__` runs where an instance is the value
    assert_calls(
        {
            "m.py": "from typing import Awaitable, Callable\n\n\n"
            "class Message:\n    pass\n\n\n"
            "class Lift:\n"
            "    async def __aenter__(self) -> Message:\n        return Message()\n\n"
            "    async def __call__(self) -> Message:\n        return Message()\n\n\n"
            "async def wait(receive: Callable[[], Awaitable[Message]]) -> Message:\n"
            "    return await receive()\n"
        },
        ("m.Lift.__aenter__", "m.Message", "exact"),
        ("m.Lift.__call__", "m.Message", "exact"),
        ("m.wait", "m.Lift.__call__", "signature"),
    )


_PLACEHOLDER = """\
from typing import Awaitable, Callable


class Message:
    pass


Send = Callable[[Message], Awaitable[None]]


async def unattached(message: Message) -> None:
    raise RuntimeError


class Responder:
    def __init__(self) -> None:
        self.send: Send = unattached

    async def attach(self, send: Send) -> None:
        self.send = send

    async def push(self) -> None:
        await self.send(Message())


async def relay(send: Send) -> None:
    await send(Message())
"""


def test_a_function_only_its_module_stores_in_an_attribute_is_no_other_callee_of_its_type() -> None:
    # starlette's `unattached_send`, what `GZipResponder.send` holds until `__call__` sets it:
    # value flow finds it where the responder calls `self.send`; `relay`'s `send` never holds it
    assert_calls(
        {"m.py": _PLACEHOLDER},
        ("m.Responder.push", "m.Message", "exact"),
        ("m.Responder.push", "m.unattached", "inferred"),
        ("m.relay", "m.Message", "exact"),
    )


def test_a_function_another_file_uses_as_a_value_may_be_any_callee_of_its_type() -> None:
    assert_calls(
        {"m.py": _PLACEHOLDER, "n.py": "from m import unattached\n\nSENDERS = [unattached]\n"},
        ("m.Responder.push", "m.Message", "exact"),
        ("m.Responder.push", "m.unattached", "inferred"),
        ("m.relay", "m.Message", "exact"),
        ("m.relay", "m.unattached", "signature"),
    )


def test_a_function_only_another_file_uses_as_a_value_may_be_any_callee_of_its_type() -> None:
    # the one file that uses `to_log` as a value is not its own module
    assert_calls(
        {
            "m.py": "from typing import Awaitable, Callable\n\n\n"
            "class Message:\n    pass\n\n\n"
            "Send = Callable[[Message], Awaitable[None]]\n\n\n"
            "async def to_log(message: Message) -> None:\n    pass\n\n\n"
            "async def relay(send: Send) -> None:\n    await send(Message())\n",
            "n.py": "from m import to_log\n\nSINKS = [to_log]\n",
        },
        ("m.relay", "m.Message", "exact"),
        ("m.relay", "m.to_log", "signature"),
    )
