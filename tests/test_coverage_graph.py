"""Imported coverage against a real Neo4j (issue 54): a small repository with its own tests,
its coverage recorded once with pytest-cov's per-test contexts, imported, then read by
`diff`, `tests_for`, `untested` and `dead_code`, before and after the code changes.

One module-scoped graph; the tests run in file order and the last one edits and commits."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.cli import main as cli_main
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.impact import CoverageImport, impact_markdown
from graphrag_code.impact.tests import reaching_tests
from graphrag_code.runtime.git import git as run_git
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe

REPO = "calc"
CHECKS = '''"""Checks."""


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def unused(a):
    return a


def validate(x):
    if x < 0:
        raise ValueError("negative")
    return x


def check(x, strict=False):
    if strict:
        return validate(x)
    return x
'''
TESTS = """import pytest

from calc.checks import check, le, lt


@pytest.mark.parametrize("v", [lt, le])
def test_order(v):
    assert v(1, 2)


def test_strict_mode():
    assert check(1, strict=True) == 1


def test_loose_validate():
    assert check(-1) == -1
"""
# state made at import and read by tests that never run the code that made it (`impact.kept`)
REGISTRY = '''"""A registry filled at import, and a memo on an object made at import."""

_NAMES = {}


def register(name):
    _NAMES[name] = name.upper()
    return name


def lookup(name):
    return _NAMES[name]


DEFAULT = register("default")


class Memo:
    def __init__(self):
        self._memo = {}

    def make(self, key):
        return key * 2

    def __call__(self, key):
        if key not in self._memo:
            self._memo[key] = self.make(key)
        return self._memo[key]


MEMO = Memo()
'''
REGISTRY_TESTS = """from calc.registry import MEMO, lookup


def test_lookup():
    assert lookup("default") == "DEFAULT"


def test_memo_first():
    assert MEMO(2) == 4


def test_memo_later():
    assert MEMO(2) == 4
"""
# a mixin's test method, run by each TestCase that inherits it (stop 65): one graph test
MODES = "def strict(x):\n    return x > 0\n\n\ndef loose(x):\n    return x >= 0\n"
MODE_TESTS = """import unittest

from calc.modes import loose, strict


class ModeChecks:
    def test_one(self):
        assert self.judge(1)


class TestStrict(ModeChecks, unittest.TestCase):
    judge = staticmethod(strict)


class TestLoose(ModeChecks, unittest.TestCase):
    judge = staticmethod(loose)
"""
# stop 65, part 3: a package's `__init__` fills a table at import through a function that
# ran outside every test, and a test module builds its `parametrize` values at collection
TABLE = """TABLE = {}


def entry(key):
    return key.upper()


def fill():
    for key in ("a", "b"):
        TABLE[key] = entry(key)
"""
TABLE_TESTS = """from calc.table.names import shout


def test_shout():
    assert shout("a") == "a!"
"""
PARAMS = "def parse(text):\n    return int(text)\n"
PARAM_TESTS = """import pytest

from calc.parse import parse

CASES = [(text, parse(text)) for text in ("1", "2")]


@pytest.mark.parametrize("text, value", CASES)
def test_value(text, value):
    assert value == int(text)
"""
# stop 66: a test runs a module as a program in a child process, which no coverage of the
# test records and no call edge follows (`impact.programs`)
CLI = """import sys


def double(x):
    return x * 2


def main(argv):
    print(double(int(argv[0])))


if __name__ == "__main__":
    main(sys.argv[1:])
"""
CLI_TESTS = """import subprocess
import sys


def run(*args):
    command = [sys.executable, "src/calc/cli.py", *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def test_cli():
    assert run("3") == "6\\n"
"""
# stop 67: code run at the import of a module the package's `__init__` imports, which the
# one test importing the package never runs: an error there fails that test's import too
LEX_TESTS = """from calc.lex.util import strip


def test_strip():
    assert strip(" a ") == "a"
"""
FILES = {
    "pyproject.toml": (
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n'
        'addopts = "--doctest-glob=*.md"\n'
    ),
    ".gitignore": ".coverage\n",
    "src/calc/__init__.py": "",
    "src/calc/checks.py": CHECKS,
    "src/calc/registry.py": REGISTRY,
    "tests/test_checks.py": TESTS,
    "tests/test_registry.py": REGISTRY_TESTS,
    "src/calc/modes.py": MODES,
    "tests/test_modes.py": MODE_TESTS,
    "src/calc/table/__init__.py": "from calc.table.build import fill\n\nfill()\n",
    "src/calc/table/build.py": TABLE,
    "src/calc/table/names.py": 'def shout(text):\n    return text + "!"\n',
    "tests/test_table.py": TABLE_TESTS,
    "src/calc/parse.py": PARAMS,
    "tests/test_params.py": PARAM_TESTS,
    "src/calc/cli.py": CLI,
    "src/calc/lex/__init__.py": "from calc.lex import words\n",
    "src/calc/lex/words.py": 'def word(name):\n    return name.upper()\n\n\nWORDS = [word("a")]\n',
    "src/calc/lex/util.py": "def strip(text):\n    return text.strip()\n",
    "tests/test_lex.py": LEX_TESTS,
    "tests/test_cli.py": CLI_TESTS,
    # doctests of a text file: pytest runs them, the index has no node for them
    "tests/guide.md": "# Guide\n\n    >>> from calc.checks import le\n    >>> le(1, 2)\n    True\n",
}
GUIDE = "tests/guide.md::guide.md"
STRICT = "tests/test_checks.py::test_strict_mode"
LOOSE = "tests/test_checks.py::test_loose_validate"


def git(root: Path, *args: str) -> str:
    return run_git(root, *args, config={"user.name": "t", "user.email": "t@example.com"}).stdout


def edit(root: Path, old: str, new: str, path: str = "src/calc/checks.py") -> None:
    file = root / path
    text = file.read_text()
    assert old in text
    file.write_text(text.replace(old, new))


@pytest.fixture(scope="module")
def covered(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[CodeGraph, Path, CoverageImport]]:
    """The repository indexed, its suite run once under pytest-cov, the coverage imported."""
    pytest.importorskip("pytest_cov")
    root = tmp_path_factory.mktemp("covered") / REPO
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--cov=src",
         "--cov-context=test", "--cov-report=", "--rootdir", str(root)],
        cwd=root, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    wipe(session_client)
    drop_search_indexes(session_client)
    settings = Settings(embedder="hashing", cache_dir=root.parent / "cache")
    graph = CodeGraph(settings, client=session_client, embedder=HashingEmbedder())
    graph.index(root, REPO, embed=False)
    done = graph.import_coverage(root / ".coverage", repo=REPO)
    yield graph, root, done
    wipe(session_client)


def test_import_stores_which_test_ran_which_function(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, done = covered
    # the package only (the tests were not measured), `cli.py` with no line run in-process
    assert done.files_measured == 12
    assert done.files_matched == 9  # an __init__.py defines nothing to map lines onto
    # the mixin's test method is one, run by two classes; `test_value` runs no package line
    assert done.tests == 10  # the guide's doctests, a test only the coverage names
    assert not done.unknown_tests  # `TestStrict::test_one` names the mixin's method
    assert done.commit == git(root, "rev-parse", "HEAD").strip()
    ran = {
        (row["test"], row["code"])
        for row in graph.client.read(
            "MATCH (t:Code)-[:RAN]->(n:Code {repo: $repo, path: 'src/calc/checks.py'}) "
            "RETURN t.name AS test, n.qualified_name AS code",
            {"repo": REPO},
        )
    }
    assert ran == {
        ("test_order", "calc.checks.lt"),  # a parametrised test, once, for each value
        ("test_order", "calc.checks.le"),
        ("guide.md", "calc.checks.le"),
        ("test_strict_mode", "calc.checks.check"),
        ("test_strict_mode", "calc.checks.validate"),
        ("test_loose_validate", "calc.checks.check"),  # it never ran validate
    }
    with pytest.raises(InvalidArgumentError, match="no coverage data file"):
        graph.import_coverage(root / "missing.coverage", repo=REPO)


def test_the_tests_that_ran_a_change_come_first_and_say_why(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, 'raise ValueError("negative")', 'raise ValueError("below zero")')
    try:
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    ids = [t.runner_id for t in impact.tests]
    # statically the loose test, named after `validate`, would come first; it never ran it,
    # so it is an extra, listed last and not among the tests to run
    assert ids == [STRICT, LOOSE]
    assert [t.reason for t in impact.tests] == [
        "ran it (coverage)",
        "extra: reaches it (certain, 2 steps), but did not run it (coverage)",
    ]
    assert [t.runner_id for t in impact.to_run] == [STRICT]
    assert impact.coverage is not None
    assert impact.coverage.static == ()
    markdown = impact_markdown(impact)
    assert "1 test(s) ran the changed code" in markdown
    to_run, extras = markdown.split("### Tests to run", 1)[1].split("Also predicted", 1)
    assert STRICT in to_run
    assert LOOSE not in to_run
    assert "(1 extra)" in extras
    assert LOOSE in extras


def test_code_a_test_ran_is_tested_and_alive(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, _, _ = covered
    untested = {u.qualified_name for u in graph.untested(REPO)}
    assert "calc.checks.unused" in untested
    assert not {"calc.checks.lt", "calc.checks.le"} & untested  # run through parametrize
    dead = {d.qualified_name for d in graph.dead_code(REPO)}
    assert not {"calc.checks.lt", "calc.checks.le"} & dead
    # statically too: a test reaches the functions its parametrize mark passes it
    lt = graph.relations.resolve("calc.checks.lt", repo=REPO).id
    reached, _ = reaching_tests(graph.reader, [lt])
    assert {(e.test.qualified_name, e.resolution, e.via) for e in reached} == {
        ("tests.test_checks.test_order", "exact", "parameter lt")
    }


def test_tests_that_read_what_code_kept_before_them_are_to_run(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    registry = "src/calc/registry.py"
    edit(root, "    _NAMES[name] = name.upper()", "    _NAMES[name] = name.lower()", registry)
    try:  # `register` ran at import only: the tests that ran its module's code may read it
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    assert {(t.runner_id, t.kept is not None) for t in impact.to_run} == {
        (f"tests/test_registry.py::{name}", True)
        for name in ("test_lookup", "test_memo_first", "test_memo_later")
    }
    assert impact.coverage is not None
    assert impact.coverage.static == (("calc.registry.register", "outside"),)
    edit(root, "        return key * 2", "        return key * 3", registry)
    try:  # the first test filled the memo on an object made at import; the later reads it
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    assert [(t.runner_id, t.reason) for t in impact.to_run] == [
        ("tests/test_registry.py::test_memo_first", "ran it (coverage)"),
        ("tests/test_registry.py::test_memo_later", "reads what it kept (coverage: "
         "ran a method that keeps its result on a shared object)"),
    ]  # fmt: skip


def test_code_run_at_a_packages_import_or_a_test_modules_collection_is_read_by_its_tests(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, "    return key.upper()", "    return key.lower()", "src/calc/table/build.py")
    try:  # `entry` ran at import, called by `fill`, which the package's `__init__` calls:
        # every test module importing the package reads it (an error there fails its import)
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    assert {(t.runner_id, t.kept is not None) for t in impact.to_run} == {
        ("tests/test_table.py::test_shout", True)
    }
    edit(root, "    return int(text)", "    return int(text) + 1", "src/calc/parse.py")
    try:  # `parse` built the parametrize values at collection: the module's tests read them
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    assert {(t.runner_id, t.kept is not None) for t in impact.to_run} == {
        ("tests/test_params.py::test_value", True)
    }


def test_code_run_at_the_import_of_a_module_the_package_imports_runs_its_importers(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, "    return name.upper()", "    return None", "src/calc/lex/words.py")
    try:  # `word` ran when the package's `__init__` imported `words`; `test_strip` imports
        # `calc.lex.util`, whose import runs the package first, and runs none of `words`
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    assert [(t.runner_id, t.reason) for t in impact.to_run] == [
        ("tests/test_lex.py::test_strip", "reads what it kept (coverage: imports "
         "calc.lex.words (or a module whose import runs it), where it ran at import: an "
         "error there fails the import)"),
    ]  # fmt: skip


def test_an_inherited_test_method_runs_as_each_class_that_has_it(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, "    return x > 0", "    return x > 1", "src/calc/modes.py")
    try:  # only coverage knows `self.check` runs `strict`: the mixin's method ran it
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    # one node for both cases; the coverage of each case is its own: only TestStrict ran it
    assert [(t.runner_id, t.reason) for t in impact.to_run] == [
        ("tests/test_modes.py::TestStrict::test_one", "ran it (coverage)")
    ]
    assert "calc.modes.strict" not in {u.qualified_name for u in graph.untested(REPO)}
    found = graph.tests_for("calc.modes.loose", repo=REPO).tests
    assert [t.runner_id for t in found] == ["tests/test_modes.py::TestLoose::test_one"]


def test_a_test_running_the_code_in_a_child_process_is_to_run(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, "    return x * 2", "    return x * 3", "src/calc/cli.py")
    try:  # `test_cli` runs `src/calc/cli.py`, whose main block calls `main`, which calls
        # `double`: in a child process, so no line of it is in the test's coverage
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    assert [(t.runner_id, t.reason) for t in impact.to_run] == [
        ("tests/test_cli.py::test_cli",
         "may run it in a child process (starts src/calc/cli.py; coverage records none)"),
    ]  # fmt: skip


@pytest.mark.usefixtures("cli_env")
def test_the_command_reimports_in_place(
    covered: tuple[CodeGraph, Path, CoverageImport], capsys: pytest.CaptureFixture[str]
) -> None:
    graph, root, _ = covered
    assert cli_main(["coverage", "import", str(root / ".coverage"), "--repo", REPO, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["edges"] == 14
    count = "MATCH (:Code)-[r:RAN]->(n:Code {repo: $repo}) RETURN count(r) AS n"
    assert graph.client.read(count, {"repo": REPO})[0]["n"] == 14  # replaced, not added
    assert cli_main(["coverage", "import", str(root / "nothing"), "--repo", REPO]) != 0


def test_a_test_only_the_coverage_names_is_run_where_it_ran_the_change(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, done = covered
    assert GUIDE in done.notes[0]
    # one node, the earlier import's replaced (the command above imported again)
    nodes = "MATCH (t:Code {repo: $repo, coverage_test: true}) RETURN t.test_runner AS runner"
    assert [row["runner"] for row in graph.client.read(nodes, {"repo": REPO})] == [GUIDE]
    edit(root, "    return a <= b", "    return not b < a")
    try:
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    guide = [t for t in impact.to_run if t.runner_id == GUIDE]
    assert [t.reason for t in guide] == ["ran it (coverage)"]
    assert {t.runner_id for t in impact.to_run} >= {GUIDE, "tests/test_checks.py::test_order[le]"}


def test_changed_code_falls_back_to_the_static_prediction_and_says_so(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, "    if x < 0:", "    if x <= -1:")
    git(root, "commit", "-q", "-am", "validate: same rule, other words")
    graph.index(root, REPO, embed=False)  # incremental: unchanged code keeps its RAN edges
    assert [t.reason for t in graph.tests_for("calc.checks.lt", repo=REPO).tests] == [
        "ran it (coverage)"
    ]
    # a test only the coverage names has no file in the index: the re-index keeps it, and
    # its RAN edge to code that did not change
    kept = (
        "MATCH (t:Code {repo: $repo, coverage_test: true})-[:RAN]->(n:Code) "
        "RETURN t.test_runner AS runner, collect(n.qualified_name) AS ran"
    )
    rows = graph.client.read(kept, {"repo": REPO})
    assert [row["runner"] for row in rows] == [GUIDE]
    assert "calc.checks.le" in rows[0]["ran"]
    edit(root, 'raise ValueError("negative")', 'raise ValueError("below zero")')
    impact = graph.diff(path=root, repo=REPO)
    assert not any(t.ran for t in impact.tests)  # validate changed since the coverage
    assert {t.runner_id for t in impact.tests} == {STRICT, LOOSE}
    assert impact.coverage is not None
    assert impact.coverage.static == (("calc.checks.validate", "changed"),)
    assert "predicted from the call graph" in impact_markdown(impact)
