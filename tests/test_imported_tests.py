"""A test imported into another test module runs there too (stop 65): pytest collects every
test class and function in a module's namespace, so `from test_timed import
TestTimedSerializer` in `test_url_safe.py` runs its methods as
`test_url_safe.py::TestTimedSerializer::test_m` as well. The test's node carries each case
(`test_cases`), as an inherited test method's does. Offline: conventions and the tests stage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphrag_code.conventions import ClassTree
from graphrag_code.ingest import tests_stage
from graphrag_code.ingest.languages import LanguageRun
from graphrag_code.ingest.offline import link_repository
from graphrag_code.languages.python.conventions import PythonConventions
from graphrag_code.languages.python.parser import PythonParser

BASE = """\
from pkg.store import put


class Helper:
    def test_not_collected(self):
        pass


class TestBase:
    def test_shared(self):
        put(1)


class TestBuilt:
    def __init__(self):
        pass

    def test_never(self):
        pass


def test_plain():
    put(2)


def _test_private():
    pass
"""

USER = """\
from tests.test_base import TestBase, Helper, TestBuilt, test_plain as test_alias
from .test_base import TestBase as TestRenamed


class TestOwn(TestBase):
    def test_own(self):
        pass
"""

STAR = """\
from tests.test_base import *


class TestBuilt:
    def test_redefined(self):
        pass
"""


def _tree() -> ClassTree:
    return ClassTree(
        {"tests.test_user.TestOwn": [("tests.test_base.TestBase", False)]},
        {
            "tests.test_base.Helper": ["test_not_collected"],
            "tests.test_base.TestBase": ["test_shared"],
            "tests.test_base.TestBuilt": ["__init__", "test_never"],
            "tests.test_user.TestOwn": ["test_own"],
            "tests.test_star.TestBuilt": ["test_redefined"],
        },
    )


def _cases(module: str, source: str) -> set[tuple[str | None, str, bool]]:
    path = module.replace(".", "/") + ".py"
    parsed = PythonParser().parse(
        path=path, module=module, is_package=False, source=source.encode(), sha256=""
    )
    conventions = PythonConventions()
    roles = conventions.roles(parsed, conventions.configure({}), _tree())
    return {(t.case, t.qualified_name, t.imported) for t in roles.tests}


def test_an_imported_test_class_or_function_is_collected_by_the_importing_module() -> None:
    user = "tests/test_user.py"
    assert _cases("tests.test_user", USER) == {
        (f"{user}::TestOwn::test_own", "tests.test_user.TestOwn.test_own", False),
        (f"{user}::TestOwn::test_shared", "tests.test_base.TestBase.test_shared", False),
        # imported: the defining class's method, under the importing module's id and name
        (f"{user}::TestBase::test_shared", "tests.test_base.TestBase.test_shared", True),
        (f"{user}::TestRenamed::test_shared", "tests.test_base.TestBase.test_shared", True),
        (f"{user}::test_alias", "tests.test_base.test_plain", True),
    }  # Helper (not a Test name) and TestBuilt (an __init__) are not collected


def test_a_star_import_binds_the_public_test_classes_a_module_defines_itself_not() -> None:
    star = "tests/test_star.py"
    assert _cases("tests.test_star", STAR) == {
        (f"{star}::TestBuilt::test_redefined", "tests.test_star.TestBuilt.test_redefined", False),
        (f"{star}::TestBase::test_shared", "tests.test_base.TestBase.test_shared", True),
    }  # its own TestBuilt replaces the star's; functions are not known across modules


class _NoWrites:
    """Stands in for the graph writer and the write-behind queue: nothing is written."""

    def submit(self, *args: object, **kwargs: object) -> None:
        return None

    def __getattr__(self, name: str) -> None:
        return None


def test_an_imported_test_is_one_node_with_a_case_per_collecting_module(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "store.py").write_text("def put(x):\n    return x\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_base.py").write_text(BASE)
    (tmp_path / "tests" / "test_user.py").write_text(USER)
    linked = link_repository(tmp_path, repo="t")
    langs = LanguageRun.of(None)
    langs.prepare(linked.index, {})
    nothing: Any = _NoWrites()
    book, _ = tests_stage.update_tests(
        parsed=linked.parsed, links=linked.links, relink=set(linked.links),
        fresh=set(linked.parsed), ids=linked.ids, langs=langs, writer=nothing, writes=nothing,
        previous=None, all_nodes=[],
    )  # fmt: skip
    base, user = "tests/test_base.py", "tests/test_user.py"
    shared = linked.ids.of_symbol("tests.test_base.TestBase.test_shared", path=base)
    assert book.roles[shared][4] == (
        f"{base}::TestBase::test_shared", f"{user}::TestBase::test_shared",
        f"{user}::TestOwn::test_shared", f"{user}::TestRenamed::test_shared",
    )  # fmt: skip
    plain = linked.ids.of_symbol("tests.test_base.test_plain", path=base)
    assert book.roles[plain][4] == (f"{base}::test_plain", f"{user}::test_alias")
    own = linked.ids.of_symbol("tests.test_user.TestOwn.test_own", path=user)
    assert book.roles[own][4] == ()  # run once, as its own id: nothing stored
    put = linked.ids.of_symbol("pkg.store.put", path="pkg/store.py")
    assert put in book.reach
