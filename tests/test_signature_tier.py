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
