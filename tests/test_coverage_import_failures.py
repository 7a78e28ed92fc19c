"""The tests whose import a change of code run at import can break (`impact.import_failures`).
Offline, on a reader that answers from tables: sqlparse's shape (BENCHMARKS §21, stop 67)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from graphrag_code.graph import GraphReader
from graphrag_code.graph.records import ImportedModule, RanInto
from graphrag_code.impact.import_failures import modules_imported, modules_running
from graphrag_code.impact.tests import exercising_tests

from .impact_fakes import TableReader


def _module(
    name: str, *imports: str, package: bool = False, tests: Sequence[str] = (),
    asked: Sequence[str] = (), runner: bool = False,
) -> ImportedModule:  # fmt: skip
    return ImportedModule(name, name, package, imports, tuple(tests), tuple(asked), runner)


# sqlparse: the package imports the lexer, which imports `tokens`, whose import runs
# `_TokenType.__getattr__`; `test_utils` imports only `sqlparse.utils`, `test_other` only a
# second top-level package, and `test_lexer` imports the lexer
_SQLPARSE = [
    _module("pkg", "pkg.lexer", package=True),
    _module("pkg.lexer", "pkg.tokens"),
    _module("pkg.tokens", asked=["getattr"]),
    _module("pkg.utils"),
    _module("other", package=True),
    _module("other.mod"),
    _module("tests.test_utils", "pkg.utils", tests=["t_utils"]),
    _module("tests.test_lexer", "pkg.lexer", tests=["t_lexer"]),
    _module("tests.test_other", "other.mod", tests=["t_other"]),
]


class _Reader(TableReader):
    def __init__(self, *, ran: Sequence[RanInto], modules: Sequence[ImportedModule]) -> None:
        super().__init__(ran=ran)
        self.modules = list(modules)
        self.asked: list[str] = []

    def module_imports(self, ids: Sequence[str]) -> list[ImportedModule]:
        self.asked += ids
        return self.modules


def test_an_import_runs_what_it_imports_and_every_package_holding_it() -> None:
    assert modules_running(_SQLPARSE, ["pkg.tokens"]) == {
        "pkg.tokens", "pkg.lexer", "pkg", "pkg.utils", "tests.test_utils", "tests.test_lexer",
    }  # fmt: skip
    # a module inside no package, and a package's module that nothing imports
    assert modules_running(_SQLPARSE, ["pkg.utils"]) == {"pkg.utils", "tests.test_utils"}


def test_a_namespace_package_leaves_the_package_above_it_in_the_walk() -> None:
    modules = [
        _module("pkg", "pkg.core", package=True),
        _module("pkg.ns.mod"),  # `pkg/ns/` has no `__init__`: importing it runs `pkg`'s
        _module("pkg.core"),
    ]
    assert modules_running(modules, ["pkg.core"]) == {"pkg.core", "pkg", "pkg.ns.mod"}


def _kept(reader: _Reader, target: str) -> list[tuple[str, str, str | None]]:
    found, _, _ = exercising_tests(cast(GraphReader, reader), {target: (target,)})
    return [(t.id, "ran" if t.ran else "kept" if t.kept else "static", t.kept) for t in found]


def test_code_run_at_import_selects_every_test_module_whose_import_runs_it() -> None:
    reader = _Reader(ran=[RanInto("getattr", ("t_lexer",), "h", "h", outside=True)],
                     modules=_SQLPARSE)  # fmt: skip
    found = _kept(reader, "getattr")
    assert [(test, how) for test, how, _ in found] == [("t_lexer", "ran"), ("t_utils", "kept")]
    why = found[1][2] or ""
    assert "imports pkg.tokens" in why
    assert "fails the import" in why


def test_code_that_ran_only_in_tests_breaks_no_import() -> None:
    reader = _Reader(ran=[RanInto("getattr", ("t_lexer",), "h", "h")], modules=_SQLPARSE)
    assert [(test, how) for test, how, _ in _kept(reader, "getattr")] == [("t_lexer", "ran")]
    assert reader.asked == []


def test_a_module_the_test_runner_imports_breaks_the_whole_run_and_selects_nothing() -> None:
    # pluggy: pytest calls its hooks around each test (code that ran outside every test and
    # in every test), so `pkg._hooks` is imported before any test, and with it the package
    # and all it imports: an error at that import stops the run, which any test shows
    modules = [
        _module("pkg", "pkg._hooks", "pkg._tracing", package=True),
        _module("pkg._hooks", runner=True),
        _module("pkg._tracing", asked=["trace"]),
        _module("tests.test_tracing", "pkg._tracing", tests=["t_tracing"]),
    ]
    assert modules_imported(modules, ["pkg._hooks"]) == {"pkg._hooks", "pkg", "pkg._tracing"}
    reader = _Reader(ran=[RanInto("trace", (), "h", "h", outside=True)], modules=modules)
    assert _kept(reader, "trace") == []
    plain = [m if m.id != "pkg._hooks" else _module("pkg._hooks") for m in modules]
    reader = _Reader(ran=[RanInto("trace", (), "h", "h", outside=True)], modules=plain)
    assert [(test, how) for test, how, _ in _kept(reader, "trace")] == [("t_tracing", "kept")]
