"""Classes of error behind the wrong certain edges of pluggy, typer and trio (issue 50, stop
64: held out at stop 63, tuning since), each checked offline on a snippet of the idiom."""

from __future__ import annotations

from .linking_helpers import assert_calls


def test_a_lambda_of_another_function_runs_no_edge_where_it_is_called() -> None:
    """pluggy's `Result.from_call(lambda: oldcall(...))`: the lambda's call of `oldcall` is
    an edge of the function that holds it, as running code and jedi place it; `from_call`,
    which only calls the lambda, calls nothing through it."""
    code = """
def hook(name):
    return name


def from_call(func):
    return func()


def traced(name):
    return from_call(lambda: hook(name))
"""
    assert_calls(
        {"m.py": code},
        ("m.traced", "m.from_call", "exact"),
        ("m.traced", "m.hook", "exact"),
    )


def test_a_lambda_a_module_holds_still_reaches_its_callee() -> None:
    """A lambda a module binds as a function without a node (huey's `to_blob = lambda data:
    sqlite3.Binary(data)`) stands in for what it calls, wherever it is called."""
    code = """
def digest(text):
    return text


to_text = lambda data: digest(data)


def store(data):
    return to_text(data)
"""
    assert_calls(
        {"m.py": code},
        ("m", "m.digest", "exact"),
        ("m.store", "m.digest", "inferred", "a lambda (line 6)"),
    )


OPERATOR_PROTOCOL = """
from typing import Protocol


class Operator(Protocol):
    def __call__(self, *sources: list) -> list: ...

    def raw(self, *sources: list) -> list: ...


def operator(func) -> Operator:
    class Implementation:
        def __call__(self, *sources):
            return func(*sources)

        def raw(self, *sources):
            return func(*sources)

    made = type(func.__name__, (Implementation,), {})
    return made()


@operator
def chain(*sources):
    return list(sources)


class Plus:
    def __call__(self, *sources: list) -> list:
        return []

    def raw(self, *sources: list) -> list:
        return []


def add(first, second):
    return chain(first, second)


def run(op: Operator):
    return op([1])


def main():
    return run(Plus())
"""


def test_a_value_declared_as_a_protocol_never_calls_its_stub_call() -> None:
    """aiostream's operators (`@sources_operator` returns `SourcesOperator[P, T]`, a Protocol
    declaring `__call__`, `raw` and `pipe`; the instance is built by `type(name, (Impl,),
    ...)`): calling the value runs the implementation's `__call__`, never the protocol's stub,
    which gets no edge, as for a callback protocol. Its other members stay the checkers'
    answer (`op.raw()` names the declared `Operator.raw`)."""
    linked = assert_calls(
        {"m.py": OPERATOR_PROTOCOL},
        ("m.main", "m.run", "exact"),
        ("m.main", "m.Plus", "exact"),
        exactly=False,
    )
    calls = linked.calls()
    assert ("m.add", "m.Operator.__call__") not in calls
    assert ("m.run", "m.Operator.__call__") not in calls


RUN_VAR = """
def helper():
    return 1


class RunVar:
    _wrappers = set()
    _first = helper()

    def helper(self):
        return 2

    def set(self, value):
        return value

    _later = helper(None)
"""


def test_a_class_body_calls_only_what_it_has_bound_above() -> None:
    """anyio's `RunVar`: `_token_wrappers = set()` runs before `def set` binds the name in
    the class body, so it calls the builtin, not `RunVar.set`; a name the body defines
    further down is the module's (or the builtin) until then, the member after it."""
    linked = assert_calls(
        {"m.py": RUN_VAR},
        ("m.RunVar", "m.helper", "exact"),
        ("m.RunVar", "m.RunVar.helper", "exact"),
    )
    calls = linked.calls()
    assert ("m.RunVar", "<builtin>.set") in calls
    assert ("m.RunVar", "m.RunVar.set") not in calls
