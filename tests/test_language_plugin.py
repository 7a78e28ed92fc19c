"""A language is one folder plus one registration: the toy language of `tests/toy_language/`
(registered from the tests folder, no other file of graphrag_code touched) is walked, parsed,
linked, written to the real Neo4j and answered like the built-in ones, beside Python."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import ConfigurationError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest import tests_stage
from graphrag_code.ingest.offline import link_repository
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.ingest.receivers import receiver_calls
from graphrag_code.languages import (
    LANGUAGES,
    language_named,
    languages,
    register,
    routes,
    select_languages,
    unregister,
)
from graphrag_code.model import EdgeKind, ParsedFile, Resolution, Symbol, SymbolKind
from graphrag_code.parsing import ModuleName
from graphrag_code.retrieval.question import analyse
from graphrag_code.settings import Settings

from .conftest import wipe
from .toy_language import TOY

TOY_REPO = Path(__file__).parent / "fixtures" / "toy"
PACKAGE = Path(__file__).parent.parent / "graphrag_code"


@pytest.fixture
def toy() -> Iterator[None]:
    register(TOY)
    yield
    unregister(TOY.name)


def _calls(repo: str = "toy") -> set[tuple[str, str, str]]:
    linked = link_repository(TOY_REPO, repo=repo)
    return {
        (edge.source, edge.target, edge.resolution.value if edge.resolution else "")
        for edge in linked.edges()
        if edge.kind == EdgeKind.CALLS
    }


def test_a_registered_language_is_linked_beside_python(toy: None) -> None:
    linked = link_repository(TOY_REPO, repo="toy")
    assert {f.language for f in linked.parsed.values()} == {"toy", "python"}
    calls = {
        (e.source, e.target): e.resolution
        for e in linked.edges()
        if e.kind == EdgeKind.CALLS and not e.external
    }
    exact = Resolution.EXACT
    assert calls == {
        ("toy:./app.toy.main", "toy:./app.toy.helper"): exact,
        ("toy:./app.toy.main", "toy:lib/greet.toy.hello"): exact,
        ("toy:./app.toy.helper", "toy:lib/greet.toy.hello"): exact,
        ("toy:lib/greet.toy.hello", "toy:lib/greet.toy.shout"): exact,
        ("toy:util.twice", "toy:util.double"): exact,
    }
    imports = {(e.source, e.target) for e in linked.edges() if e.kind == EdgeKind.IMPORTS}
    assert ("toy:./app.toy", "toy:lib/greet.toy") in imports


def test_a_question_names_a_file_of_any_language_read(toy: None) -> None:
    assert analyse("What breaks if I change lib/greet.toy?").paths == ("lib/greet.toy",)
    unregister(TOY.name)
    assert analyse("What breaks if I change lib/greet.toy?").paths == ()
    register(TOY)


def test_registration_is_checked_and_undone(toy: None) -> None:
    assert [lang.name for lang in select_languages(["tl"])] == ["toy"]
    assert routes().suffixes[".toy"] == "toy"
    with pytest.raises(ConfigurationError, match="already taken"):
        register(TOY)
    unregister(TOY.name)
    assert languages() == LANGUAGES
    assert ".toy" not in routes().suffixes
    with pytest.raises(ConfigurationError, match="unknown language"):
        select_languages(["toy"])
    register(TOY)  # for the fixture to remove


def test_without_the_plugin_toy_files_are_not_read() -> None:
    linked = link_repository(TOY_REPO, repo="toy")
    assert {f.language for f in linked.parsed.values()} == {"python"}


def test_a_registered_language_is_indexed_and_answered_from_neo4j(
    toy: None, neo4j: Neo4jClient, tmp_path: Path
) -> None:
    wipe(neo4j)
    report = build_graph(TOY_REPO, neo4j, repo="toy", state_dir=tmp_path / "state")
    assert report.languages["toy"].files == 2
    assert report.languages["toy"].edges["CALLS/exact"] == 4
    graph = CodeGraph(Settings(embedder="hashing"), client=neo4j)
    callers = graph.callers("lib/greet.toy.hello", repo="toy")
    assert {r.qualified_name for r in callers.certain} == {"./app.toy.main", "./app.toy.helper"}
    assert callers.possible == []
    callees = graph.callees("./app.toy.main", depth=2, repo="toy")
    assert {r.qualified_name for r in callees.certain} == {
        "./app.toy.helper", "lib/greet.toy.hello", "lib/greet.toy.shout",
    }  # fmt: skip


def test_a_file_the_graph_lacks_is_named_by_its_language() -> None:
    python, typescript = language_named("python"), language_named("typescript")
    beside = {"src/pkg/__init__.py": "pkg", "src/pkg/a.py": "pkg.a"}
    assert python.guess_module("src/pkg/new.py", beside) == ModuleName("pkg.new", False, "")
    assert python.guess_module("src/pkg/sub/__init__.py", {}) == ModuleName("pkg.sub", True, "")
    assert typescript.guess_module("web/app.ts", {"web/b.ts": "web/b.ts"}).module == "web/app.ts"
    assert TOY.guess_module("app.toy", {}) == ModuleName("./app.toy", False, "")
    tests = [lang.test_path for lang in (python, python, typescript, typescript, TOY, TOY)]
    paths = [
        "a/conftest.py",
        "a/io_test.py",
        "a/b.spec.ts",
        "a/conftest.ts",
        "tests/a.toy",
        "a.toy",
    ]
    assert [test(path) for test, path in zip(tests, paths, strict=True)] == [1, 1, 1, 0, 1, 0]


def test_methods_run_by_syntax_are_the_language_s_own() -> None:
    def method(name: str, *decorators: str) -> Symbol:
        return Symbol(f"m.C.{name}", name, SymbolKind.METHOD, "m.C", 1, 2, "", None, decorators, "")

    python, typescript = language_named("python"), language_named("typescript")
    assert python.runs_by_syntax(method("__enter__"))
    assert python.runs_by_syntax(method("size", "functools.cached_property"))
    assert not python.runs_by_syntax(method("size"))
    assert not typescript.runs_by_syntax(method("__enter__"))
    assert (python.constructor, typescript.constructor, TOY.constructor) == ("__init__", None, None)


def _parsed(language: str, path: str, source: str) -> ParsedFile:
    parser = language_named(language).parser()
    module = path.rpartition(".")[0]
    return parser.parse(
        path=path, module=module, is_package=False, source=source.encode(), sha256=""
    )


def test_parameters_no_fixture_fills_are_the_language_s_own() -> None:
    """Python's receivers and pytest's `request` give the tests stage no fixture-given object
    to type; TypeScript has neither (`this` is no parameter there), nor has the toy."""
    python, typescript = language_named("python"), language_named("typescript")
    assert python.implicit_parameters == {"self", "cls", "request"}
    assert typescript.implicit_parameters == TOY.implicit_parameters == frozenset()
    py = _parsed(
        "python", "t.py", "def f(self, request, client):\n    request.a()\n    client.b()\n"
    )
    ts = _parsed(
        "typescript", "t.ts", "function f(this: T, request, client) { request.a(); client.b(); }"
    )
    assert receiver_calls(py, python.implicit_parameters) == (("t.f", "client", "b"),)
    assert receiver_calls(ts, typescript.implicit_parameters) == (
        ("t.f", "client", "b"),
        ("t.f", "request", "a"),
    )


def test_test_runner_calls_and_built_in_methods_are_the_language_s_own() -> None:
    """The tests stage notes in a file's digest whether it declares tests by its language's
    runner calls (Jest's `it`), and leaves its language's built-in methods (`x.get()`) out of
    namesake matching. TypeScript keeps the table every language had before each had its own
    (Python's): one of JavaScript's own would change REACHES edges of three of the five
    TypeScript benchmark trees."""
    python, typescript = language_named("python"), language_named("typescript")
    assert typescript.runner_calls == {"it", "test", "describe"}
    assert python.runner_calls == TOY.runner_calls == frozenset()
    assert {"get", "append", "close"} <= python.builtin_methods
    assert typescript.builtin_methods == python.builtin_methods
    assert TOY.builtin_methods == frozenset()

    def shape(path: str, source: str) -> str:
        language = "typescript" if path.endswith(".ts") else "python"
        return tests_stage._shape(_parsed(language, path, source))

    assert shape("a.ts", "f();") != shape("a.ts", "it();")
    assert shape("a.py", "f()\n") == shape("a.py", "it()\n")


_NAMES = frozenset(alias for lang in LANGUAGES for alias in (lang.name, *lang.aliases))


def _docstrings(tree: ast.Module) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def _language_names(path: Path) -> list[str]:
    """The strings of `path`'s code that name a language: every string constant (a part of
    an f-string included) that is, in any letter case, a built-in language's name or alias
    (`"python"`, `"TS"`), which is how code would branch on a language. Docstrings are prose
    and do not count, nor do names inside longer text (a message saying "Python"). File
    suffixes do not count yet: the history benchmark's questions are Python commits, a rule
    whose widening would change results."""
    tree = ast.parse(path.read_text())
    docstrings = _docstrings(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.lower() in _NAMES
        and id(node) not in docstrings
    ]


def test_no_code_outside_the_language_folders_names_a_language() -> None:
    """Outside `graphrag_code/languages/`, nothing decides by a language's name: what differs
    between languages is a field or hook of the `Language` record, reached through the
    registry. No module (of every one in the package, `evaluation/` and the CLI included)
    holds a string naming a language (`_language_names`), and no Cypher file compares with
    one, quoted either way in any case."""
    naming = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if "languages" not in path.relative_to(PACKAGE).parts and (found := _language_names(path))
    }
    assert naming == {}
    names = "|".join(map(re.escape, sorted(_NAMES)))
    quoted = re.compile(rf"(['\"])(?:{names})\1", re.IGNORECASE)
    assert quoted.search('WHERE n.language = "TypeScript"')  # what it would catch
    cypher = sorted((PACKAGE.parent / "cypher").rglob("*.cypher"))
    assert len(cypher) > 50  # the queries are where this test looks for them
    assert [p.name for p in cypher if quoted.search(p.read_text())] == []


def test_the_check_sees_a_language_named_in_code(tmp_path: Path) -> None:
    code = tmp_path / "leak.py"
    code.write_text(
        '"""Python and TypeScript are only named here, in prose."""\n'
        'def f(lang):\n    """Is it \'python\'?"""\n'
        '    return lang == "Python" or f"{lang}" == f"ts" or lang in ("js",)\n'
    )
    assert sorted(_language_names(code)) == ["Python", "js", "ts"]
