"""Classes of error behind the misses of structlog, anyio and cleo (issue 50, stop 63: held
out until then, tuning since), each checked offline on a snippet of the idiom."""

from __future__ import annotations

from .linking_helpers import assert_calls

STREAMS = """
from typing import Generic, TypeVar, Union

T = TypeVar("T")


class ObjectReceiveStream(Generic[T]):
    def receive(self) -> T: ...


class ByteReceiveStream:
    def receive(self, max_bytes: int = 65536) -> bytes: ...


AnyByteReceiveStream = Union[ObjectReceiveStream[bytes], ByteReceiveStream]
"""


def test_a_field_declared_as_a_union_holds_an_instance_of_each_member() -> None:
    """anyio's `receive_stream: AnyByteReceiveStream` in a dataclass body, no method
    assigning it: `self.receive_stream.receive()` runs one of the union's `receive`s, as
    the checkers read it, whether the union is spelled out or named by an alias."""
    code = """
from dataclasses import dataclass
from typing import Union

from .streams import AnyByteReceiveStream, ByteReceiveStream, ObjectReceiveStream


@dataclass
class Buffered:
    receive_stream: AnyByteReceiveStream

    def receive(self):
        return self.receive_stream.receive()


@dataclass
class Spelled:
    receive_stream: Union[ObjectReceiveStream[bytes], ByteReceiveStream]

    def receive(self):
        return self.receive_stream.receive()
"""
    assert_calls(
        {"p/__init__.py": "", "p/streams.py": STREAMS, "p/buffered.py": code},
        ("p.buffered.Buffered.receive", "p.streams.ByteReceiveStream.receive", "inferred"),
        ("p.buffered.Buffered.receive", "p.streams.ObjectReceiveStream.receive", "inferred"),
        ("p.buffered.Spelled.receive", "p.streams.ByteReceiveStream.receive", "inferred"),
        ("p.buffered.Spelled.receive", "p.streams.ObjectReceiveStream.receive", "inferred"),
    )


def test_a_field_declared_as_a_container_is_no_union() -> None:
    """`handlers: list[Handler]` in a class body declares what its elements are, not that
    the attribute is a Handler: `self.handlers.run()` calls no `Handler.run`."""
    code = """
class Handler:
    def run(self): ...


class Registry:
    handlers: list[Handler]

    def go(self):
        return self.handlers.run()
"""
    linked = assert_calls({"m.py": code}, exactly=False)
    assert ("m.Registry.go", "m.Handler.run") not in linked.calls()


PROCESSORS = """
def merge(event): ...
def add_level(event): ...
def render(event): ...


DEFAULTS = [merge, add_level, render]
GROWN = [merge]
GROWN.append(render)


class Adapter:
    def __init__(self, renderer=None):
        self._renderer = renderer or DEFAULTS[-1]

    def __call__(self, event):
        return self._renderer(event)


def first(event):
    return DEFAULTS[0](event)


def grown(event):
    return GROWN[0](event)
"""


def test_a_constant_index_into_a_list_nothing_is_added_to_picks_one_element() -> None:
    """structlog's `dictRenderer or _BUILTIN_DEFAULT_PROCESSORS[-1]`: the list's last
    processor, not every one of them; a list that code appends to keeps all its elements
    (an index may then reach an added one)."""
    assert_calls(
        {"m.py": PROCESSORS},
        ("m.Adapter.__call__", "m.render", "inferred"),
        ("m.first", "m.merge", "inferred"),
        ("m.grown", "m.merge", "inferred"),
        ("m.grown", "m.render", "inferred"),
    )


CALLBACK_PROTOCOL = """
from typing import Protocol


class Transformer(Protocol):
    def __call__(self, value: int) -> str: ...


class Upper:
    def __call__(self, value: int) -> str:
        return str(value)


def plain(value: int) -> str:
    return str(value)


class Renderer:
    def __init__(self, transform: Transformer = plain):
        self.transform = transform

    def render(self):
        return self.transform(1)


def apply(transform: Transformer):
    return transform(1)


def main():
    return apply(Upper())
"""


def test_a_value_declared_as_a_callback_protocol_calls_what_reaches_it() -> None:
    """structlog's `ExceptionTransformer`, a Protocol declaring only `__call__`: calling a
    value declared so runs what is passed (a function, an instance), never the protocol's
    stub, which gets no edge."""
    assert_calls(
        {"m.py": CALLBACK_PROTOCOL},
        ("m.Renderer.render", "m.plain", "inferred"),
        ("m.apply", "m.Upper.__call__", "inferred"),
        ("m.main", "m.apply", "exact"),
        ("m.main", "m.Upper", "exact"),
    )


NULL_OBJECT = """
class Output:
    def write(self, message): ...

    @property
    def verbosity(self):
        return 1


class StreamOutput(Output):
    def write(self, message):
        print(message)

    @property
    def verbosity(self):
        return self._verbosity


class NullOutput(Output):
    def write(self, message):
        pass

    @property
    def verbosity(self):
        return Verbosity.QUIET


class Quiet(Output):
    def write(self, message):
        pass


class IO:
    def __init__(self, output: Output):
        self._output = output

    def write(self, message):
        self._output.write(message)


def silent():
    NullOutput().write("x")
"""


def test_no_dispatch_edge_reaches_a_null_object() -> None:
    """cleo's `NullOutput`, a null object (every method does nothing): `self._output.write()`
    on an `Output` may run `StreamOutput.write` or `Quiet.write` (a class that silences one
    method), possible edges, while `NullOutput.write` leads nowhere and gets none; a call
    resolved to it still reaches it, certain."""
    linked = assert_calls(
        {"m.py": NULL_OBJECT},
        ("m.IO.write", "m.Output.write", "inferred"),
        ("m.IO.write", "m.StreamOutput.write", "dispatch"),
        ("m.IO.write", "m.Quiet.write", "dispatch"),
        ("m.silent", "m.NullOutput", "exact"),
        ("m.silent", "m.NullOutput.write", "inferred"),
        exactly=False,
    )
    assert ("m.IO.write", "m.NullOutput.write") not in linked.calls()


def test_a_call_through_a_field_declared_as_a_union_does_not_dispatch() -> None:
    """anyio's stream fields: the union names the classes the checkers read; the overrides
    below each member are not dispatch edges from such a call."""
    code = """
from dataclasses import dataclass

from .streams import AnyByteReceiveStream, ByteReceiveStream


class SocketStream(ByteReceiveStream):
    def receive(self, max_bytes: int = 65536) -> bytes:
        return self.socket.recv(max_bytes)


@dataclass
class Buffered:
    receive_stream: AnyByteReceiveStream

    def receive(self):
        return self.receive_stream.receive()


def read(stream: ByteReceiveStream):
    return stream.receive()
"""
    linked = assert_calls(
        {"p/__init__.py": "", "p/streams.py": STREAMS, "p/buffered.py": code},
        ("p.buffered.Buffered.receive", "p.streams.ByteReceiveStream.receive", "inferred"),
        ("p.buffered.read", "p.buffered.SocketStream.receive", "dispatch"),
        exactly=False,
    )
    assert ("p.buffered.Buffered.receive", "p.buffered.SocketStream.receive") not in (
        linked.calls()
    )


def test_no_certain_edge_reaches_a_protocol_through_value_flow() -> None:
    """structlog's `col.formatter(...)`, `formatter: ColumnFormatter` a callback protocol
    read off a declared column, and `cls(...)` where `cls` is a Protocol class: neither the
    stub nor the protocol (which cannot be built) is a certain callee."""
    code = """
from typing import Protocol


class Formatter(Protocol):
    def __call__(self, key: str) -> str: ...


class Bindable(Protocol):
    def bind(self) -> None: ...


class Column:
    formatter: Formatter

    def __init__(self, formatter: Formatter) -> None:
        self.formatter = formatter


class Proxy:
    wrapper_class = Bindable

    def format(self, columns: list[Column]):
        for col in columns:
            col.formatter("k")

    def bind(self):
        cls = self.wrapper_class
        return cls()
"""
    linked = assert_calls({"m.py": code}, exactly=False)
    calls = linked.calls()
    assert ("m.Proxy.format", "m.Formatter.__call__") not in calls
    assert ("m.Proxy.bind", "m.Bindable") not in calls
