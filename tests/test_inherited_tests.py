"""A test method runs once per class that has it (stop 65): pytest collects `TestB(TestA)`'s
inherited `test_m` as `TestB::test_m`, and a mixin's `test_*` methods in each TestCase that
uses it, while the graph has the method once. The method's node is the test of each such
case: it carries their runner ids (`test_cases`), runs each class's set-ups, and the tests
to run list every case; the coverage of each case is its own (a RAN edge keeps the cases
that ran its target). Offline: conventions, the tests stage, the ranking and the coverage."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from graphrag_code.conventions import ClassTree
from graphrag_code.graph import GraphReader
from graphrag_code.graph.records import RanInto, SymbolRef, TestEdge
from graphrag_code.impact.coverage import CoverageLines, Span, covered_pairs
from graphrag_code.impact.tests import _ranked, _Test, exercising_tests
from graphrag_code.ingest import tests_stage
from graphrag_code.ingest.languages import LanguageRun
from graphrag_code.ingest.offline import link_repository
from graphrag_code.languages.python.conventions import PythonConventions
from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.location import Location

from .test_coverage_kept import _Reader

MODULE = "tests.test_store"
PATH = "tests/test_store.py"
TESTS = """\
import unittest


class StoreChecks:
    def setUp(self):
        self.store = self.make()

    def test_put(self):
        pass

    def helper(self):
        pass


class TestMemory(StoreChecks, unittest.TestCase):
    def make(self):
        pass


class TestFile(StoreChecks, unittest.TestCase):
    def setUp(self):
        pass

    def test_put(self):
        pass


class TestBase:
    def test_shared(self):
        pass


class TestDerived(TestBase):
    def test_own(self):
        pass


class Built:
    def __init__(self):
        pass

    def test_never(self):
        pass


class TestBuilt(Built):
    pass
"""


def _tree() -> ClassTree:
    q = f"{MODULE}."
    return ClassTree(
        {
            q + "TestMemory": [(q + "StoreChecks", False), ("unittest.TestCase", True)],
            q + "TestFile": [(q + "StoreChecks", False), ("unittest.TestCase", True)],
            q + "TestDerived": [(q + "TestBase", False)],
            q + "TestBuilt": [(q + "Built", False)],
        },
        {
            q + "StoreChecks": ["setUp", "test_put", "helper"],
            q + "TestMemory": ["make"],
            q + "TestFile": ["setUp", "test_put"],
            q + "TestBase": ["test_shared"],
            q + "TestDerived": ["test_own"],
            q + "Built": ["__init__", "test_never"],
        },
    )


def test_each_collecting_class_runs_the_test_methods_it_inherits() -> None:
    parsed = PythonParser().parse(
        path=PATH, module=MODULE, is_package=False, source=TESTS.encode(), sha256=""
    )
    conventions = PythonConventions()
    roles = conventions.roles(parsed, conventions.configure({}), _tree())
    found = {
        (t.case, t.qualified_name.removeprefix(MODULE + "."), t.inherited) for t in roles.tests
    }
    assert found == {
        # a mixin's test method, in the TestCase that inherits it: the mixin's node
        (f"{PATH}::TestMemory::test_put", "StoreChecks.test_put", True),
        # overridden: the class's own method
        (f"{PATH}::TestFile::test_put", "TestFile.test_put", False),
        # a pytest class runs its base's tests as its own, and the base runs them too
        (f"{PATH}::TestBase::test_shared", "TestBase.test_shared", False),
        (f"{PATH}::TestDerived::test_shared", "TestBase.test_shared", True),
        (f"{PATH}::TestDerived::test_own", "TestDerived.test_own", False),
    }  # the mixin alone, and a Test class with an inherited __init__, are not collected
    memory = next(t for t in roles.tests if t.case == f"{PATH}::TestMemory::test_put")
    assert f"{MODULE}.StoreChecks.setUp" in memory.setups


def test_an_inherited_test_is_one_node_with_a_case_per_class(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "store.py").write_text("def put(x):\n    return x\n")
    (tmp_path / "tests").mkdir()
    body = TESTS.replace("    def test_put(self):\n        pass\n\n    def helper", (
        "    def test_put(self):\n        put(1)\n\n    def helper"
    ), 1)  # fmt: skip
    (tmp_path / PATH).write_text("from pkg.store import put\n" + body)
    linked = link_repository(tmp_path, repo="t")
    langs = LanguageRun.of(None)
    langs.prepare(linked.index, {})
    nothing: Any = _NoWrites()
    book, report = tests_stage.update_tests(
        parsed=linked.parsed, links=linked.links, relink=set(linked.links),
        fresh=set(linked.parsed), ids=linked.ids, langs=langs, writer=nothing, writes=nothing,
        previous=None, all_nodes=[],
    )  # fmt: skip
    node = linked.ids.of_symbol(f"{MODULE}.StoreChecks.test_put", path=PATH)
    assert book.roles[node][1] == "test"
    assert book.roles[node][4] == (f"{PATH}::TestMemory::test_put",)
    shared = linked.ids.of_symbol(f"{MODULE}.TestBase.test_shared", path=PATH)
    assert book.roles[shared][4] == (
        f"{PATH}::TestBase::test_shared", f"{PATH}::TestDerived::test_shared",
    )  # fmt: skip
    own = linked.ids.of_symbol(f"{MODULE}.TestDerived.test_own", path=PATH)
    assert book.roles[own][4] == ()  # run once, as its own id: nothing stored
    put = linked.ids.of_symbol("pkg.store.put", path="pkg/store.py")
    assert put in book.reach  # the mixin's test reaches what it calls: tested
    assert report.tests == 4  # nodes: the mixin's and TestFile's `test_put`, two of pytest's
    setup = linked.ids.of_symbol(f"{MODULE}.StoreChecks.setUp", path=PATH)
    assert (setup, "setup setUp", tests_stage._EXACT) in book.seeds[node]


class _NoWrites:
    """Stands in for the graph writer and the write-behind queue: nothing is written."""

    def submit(self, *args: object, **kwargs: object) -> None:
        return None

    def __getattr__(self, name: str) -> None:
        return None


def test_the_tests_to_run_name_every_case_of_an_inherited_test() -> None:
    location = Location(PATH, 8, 9)
    test = SymbolRef("n1", f"{MODULE}.StoreChecks.test_put", "Method", "t", location)
    cases = (f"{PATH}::TestFile::test_put", f"{PATH}::TestMemory::test_put")
    entry = _Test(TestEdge("t", test, 1, "exact", None, MODULE, None, cases))
    entry.add(entry.edge, ("pkg.store.put",), {})
    assert [t.runner_id for t in _ranked([entry])] == list(cases)
    alone = _Test(TestEdge("t", test, 1, "exact", None, MODULE))
    alone.add(alone.edge, ("pkg.store.put",), {})
    assert [t.runner_id for t in _ranked([alone])] == [f"{PATH}::StoreChecks::test_put"]


def test_coverage_keeps_which_case_of_an_inherited_test_ran_the_code() -> None:
    lines = CoverageLines(
        {"/r/pkg/store.py": {2: (f"{PATH}::TestMemory::test_put|run", f"{PATH}::TestFile::x|run")}},
        3,
    )
    tests = {f"{PATH}::TestMemory::test_put": "mixin", f"{PATH}::TestFile::x": "own"}
    covered = covered_pairs(
        lines, {"/r/pkg/store.py": "pkg/store.py"}, {"pkg/store.py": [Span("put", 1, 3)]},
        tests, {f"{PATH}::TestMemory::test_put"},
    )  # fmt: skip
    assert covered.pairs == {("mixin", "put"), ("own", "put")}
    assert covered.cases == {("mixin", "put"): {f"{PATH}::TestMemory::test_put"}}


class _CasesReader(_Reader):
    """Test `m` is a mixin's method that TestA and TestB run."""

    def test_nodes(self, ids: Sequence[str]) -> dict[str, tuple[Any, ...]]:
        cases = ("tests/test_m.py::TestA::test_m", "tests/test_m.py::TestB::test_m")
        return {
            i: (*found, None, cases if i == "m" else ())
            for i, found in super().test_nodes(ids).items()
        }


def test_only_the_cases_that_ran_the_change_are_to_run() -> None:
    # cachetools-like: one mixin test per cache class; a change to one class's code ran in
    # that class's case only, the others reach it statically (through the mixin's calls)
    reader = _CasesReader(
        reaches={"put": ["m"]},
        ran=[RanInto("put", ("m",), "h", "h", cases={"m": ("tests/test_m.py::TestA::test_m",)})],
    )
    found, _, _ = exercising_tests(cast(GraphReader, reader), {"put": ("put",)})
    assert [(t.runner_id, t.ran, t.extra) for t in found] == [
        ("tests/test_m.py::TestA::test_m", True, False),
        ("tests/test_m.py::TestB::test_m", False, True),  # fresh coverage: it did not run it
    ]
