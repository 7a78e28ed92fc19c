"""Annotated signatures (issue 19, tier `signature`): what the Python parser records of
callable type aliases, inline `Callable[[...], R]` annotations and annotated functions, and
an incremental run that relinks a caller when a function of its callee's type appears in
another file (the edges themselves: `test_valueflow.py`)."""

from __future__ import annotations

from pathlib import Path

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.languages.python.signatures import is_test_module
from graphrag_code.model import Signature

from .relinking import assert_same_as_clean_index, write_file


def _signatures(source: str, module: str = "m") -> dict[str, Signature]:
    parsed = PythonParser().parse(
        path="m.py", module=module, is_package=False, source=source.encode(), sha256=""
    )
    return {signature.name: signature for signature in parsed.signatures}


def _handler_app(tmp_path: Path) -> Path:
    """A package whose `app.runner.run` calls a parameter of the callable type `Handler`
    (`app.kinds`): what may run there is a `signature` question."""
    work = tmp_path / "work"
    write_file(work, "app/__init__.py", "")
    write_file(
        work,
        "app/kinds.py",
        "from collections.abc import Callable\n\nHandler = Callable[[int], str]\n",
    )
    write_file(
        work,
        "app/runner.py",
        "from .kinds import Handler\n\n\ndef run(handler: Handler) -> str:\n"
        "    return handler(1)\n",
    )
    return work


def _index(neo4j: Neo4jClient, tmp_path: Path) -> None:
    build_graph(tmp_path / "work", neo4j, repo="sig", state_dir=tmp_path / "state")


def _run_callees(neo4j: Neo4jClient) -> dict[str, str]:
    """What `app.runner.run` calls, with each edge's tier."""
    rows = neo4j.read(
        "MATCH (:Code {repo: 'sig', qualified_name: 'app.runner.run'})-[r:CALLS]->(b) "
        "RETURN b.qualified_name AS b, r.resolution AS tier",
    )
    return {row["b"]: row["tier"] for row in rows}


def test_callable_aliases_in_each_spelling_are_declared_types() -> None:
    found = _signatures(
        "import typing\n"
        "from typing import Awaitable, Callable, Coroutine, TypeAlias\n"
        "Send = typing.Callable[[Message], typing.Awaitable[None]]\n"
        "Receive: TypeAlias = Callable[[], Awaitable[Message]]\n"
        "type App = Callable[[Scope, Receive, Send], Coroutine[None, None, str]]\n"
        "Hook = Callable[[int, 'Request | None'], Response]\n"
        "Anything = Callable[..., None]\n"
        "Plain = dict[str, int]\n"
    )
    assert found["m.Send"] == Signature("m.Send", (("Message",),), 1, None, True, declared=True)
    assert found["m.Receive"] == Signature("m.Receive", (), 0, ("Message",), True, declared=True)
    assert found["m.App"].parameters == (("Scope",), ("Receive",), ("Send",))
    assert (found["m.App"].returns, found["m.App"].awaitable) == (("str",), True)
    assert found["m.Hook"].parameters == (("int",), ("Request",))
    assert (found["m.Hook"].returns, found["m.Hook"].awaitable) == (("Response",), False)
    assert "m.Anything" not in found  # `...`: no parameters to match on
    assert "m.Plain" not in found


def test_functions_record_positional_types_defaults_and_awaitability() -> None:
    found = _signatures(
        "class C:\n"
        "    async def __call__(self, scope: Scope, send: Send, *, late: int = 0) -> None: ...\n"
        "def f(a: A, b: B = B(), *rest: int, c: C) -> Result: ...\n"
        "def g(x, y): ...\n"
        "def h(cb: Callable[[A], B], /, other: int) -> Awaitable[B]: ...\n"
    )
    call = found["m.C.__call__"]
    assert call == Signature("m.C.__call__", (None, ("Scope",), ("Send",)), 3, None, True)
    assert found["m.f"] == Signature("m.f", (("A",), ("B",)), 1, ("Result",), False)
    assert "m.g" not in found  # nothing annotated: nothing to match a declared type against
    assert found["m.h"] == Signature("m.h", (None, ("int",)), 2, ("B",), True)
    assert found["m.h(cb)"] == Signature("m.h(cb)", (("A",),), 1, ("B",), False, declared=True)


def test_a_function_of_the_type_appearing_elsewhere_relinks_the_caller(
    neo4j: Neo4jClient, tmp_path: Path
) -> None:
    work = _handler_app(tmp_path)
    # each used as a value (a function only ever called is no possible callee)
    write_file(
        work, "app/one.py", "def first(n: int) -> str:\n    return str(n)\n\n\nALL = [first]\n"
    )
    write_file(work, "app/other.py", "def unrelated() -> None:\n    pass\n")
    _index(neo4j, tmp_path)
    assert _run_callees(neo4j) == {"app.one.first": "signature"}
    # only app/other.py changes: a second function of type `Handler` appears in it
    write_file(
        work,
        "app/other.py",
        "def unrelated() -> None:\n    pass\n\n\ndef second(n: int) -> str:\n    return ''\n"
        "\n\nMORE = [second]\n",
    )
    _index(neo4j, tmp_path)
    assert _run_callees(neo4j) == {"app.one.first": "signature", "app.other.second": "signature"}
    assert_same_as_clean_index(neo4j, work, tmp_path, "sig")


def test_test_modules_are_told_by_their_dotted_names() -> None:
    for module in ("tests.test_app", "pkg.tests.helpers", "pkg.test_routing", "conftest",
                   "pkg.routing_test", "testing.utils"):  # fmt: skip
        assert is_test_module(module), module
    for module in ("starlette.routing", "pkg.testclient", "contest.app", "attestation"):
        assert not is_test_module(module), module


def test_a_nested_function_let_out_of_value_flow_relinks_the_caller(
    neo4j: Neo4jClient, tmp_path: Path
) -> None:
    work = _handler_app(tmp_path)
    one = (
        "from .kinds import Handler\n\nHANDLERS: list[Handler] = []\n\n\n"
        "def keep(handler: Handler) -> None:\n    pass\n\n\n"
        "def make() -> None:\n    def inner(n: int) -> str:\n        return str(n)\n\n"
        "    {use}\n"
    )
    # passed only to `keep`, a function value flow follows: no possible callee of `run`
    write_file(work, "app/one.py", one.format(use="keep(inner)"))
    _index(neo4j, tmp_path)
    assert _run_callees(neo4j) == {}
    # only app/one.py changes: the function goes into a list, where value flow loses it
    write_file(work, "app/one.py", one.format(use="HANDLERS.append(inner)"))
    _index(neo4j, tmp_path)
    assert _run_callees(neo4j) == {"app.one.make.inner": "signature"}
    assert_same_as_clean_index(neo4j, work, tmp_path, "sig")
