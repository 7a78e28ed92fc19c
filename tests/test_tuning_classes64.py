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
