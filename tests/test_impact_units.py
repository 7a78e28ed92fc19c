"""Change impact without a database: unified diffs, changed symbols, test conventions,
fixture wiring, what a test reaches on the reach graph and the dead-code verdicts (issue 16)."""

from __future__ import annotations

import random
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from graphrag_code.conventions import ClassTree, exercising, reached_ranks, seeds_of_tests
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph.records import DeadCandidate, ImpactStep, SymbolRef
from graphrag_code.impact.blast import BlastOptions, blast_radius
from graphrag_code.impact.changes import file_changes, pair_moves
from graphrag_code.impact.deadcode import judge
from graphrag_code.impact.records import ChangedSymbol
from graphrag_code.impact.sources import DiffSpec, read_changes
from graphrag_code.impact.tests import affinity, run_order, runner_id
from graphrag_code.impact.unified import looks_like_diff, old_text_from, parse_unified_diff
from graphrag_code.languages import Hook
from graphrag_code.languages.ecmascript.conventions import EcmaScriptConventions
from graphrag_code.languages.ecmascript.parser import EcmaScriptParser
from graphrag_code.languages.python.conventions import PythonConventions
from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.languages.python.plugin import PYTHON
from graphrag_code.location import Location
from graphrag_code.model import ParsedFile, Resolution

# reach tiers: each a `Resolution.rank`
EXACT, INFERRED, NAME = Resolution.EXACT.rank, Resolution.INFERRED.rank, Resolution.NAME.rank

PATCH = textwrap.dedent(
    """\
    diff --git a/pkg/mod.py b/pkg/mod.py
    index 1111111..2222222 100644
    --- a/pkg/mod.py
    +++ b/pkg/mod.py
    @@ -2,3 +2,4 @@ def f():
         a = 1
    -    b = 2
    +    b = 3
    +    c = 4
         return a
    diff --git a/old.py b/new.py
    similarity index 90%
    rename from old.py
    rename to new.py
    diff --git a/gone.py b/gone.py
    deleted file mode 100644
    --- a/gone.py
    +++ /dev/null
    @@ -1,2 +0,0 @@
    -def g():
    -    pass
    diff --git a/logo.png b/logo.png
    new file mode 100644
    Binary files /dev/null and b/logo.png differ
    """
)


def parse(code: str, path: str = "pkg/mod.py", module: str = "pkg.mod") -> ParsedFile:
    return PythonParser().parse(
        path=path, module=module, is_package=False, source=textwrap.dedent(code).encode(),
        sha256="",
    )  # fmt: skip


def test_diff_parses_symbols_only_and_reads_the_same_symbols() -> None:
    source = textwrap.dedent(
        """
        \"\"\"Doc.\"\"\"
        import os


        class Box:
            def put(self, item: int) -> None:
                self.items = [item]
                os.path.join("a", str(item))


        def make() -> Box:
            box = Box()
            box.put(1)
            return box
        """
    ).encode()
    kwargs: dict[str, Any] = {
        "path": "pkg/mod.py", "module": "pkg.mod", "is_package": False, "source": source,
        "sha256": "",
    }  # fmt: skip
    full = PythonParser().parse(**kwargs)
    only = PythonParser().parse(**kwargs, symbols_only=True)
    linked = ("calls", "flows", "imports", "bindings")  # what the index links, not diff
    assert all(getattr(full, name) for name in linked)
    assert not any(getattr(only, name) for name in (*linked, "passes", "signatures"))
    read = ("symbols", "code", "docstring", "loc", "module", "language", "issues")
    assert [getattr(only, name) for name in read] == [getattr(full, name) for name in read]


def test_a_unified_diff_gives_files_statuses_and_changed_lines() -> None:
    files = parse_unified_diff(PATCH)
    assert [(f.status, f.path) for f in files] == [
        ("modified", "pkg/mod.py"), ("renamed", "new.py"), ("deleted", "gone.py"),
        ("added", "logo.png"),
    ]  # fmt: skip
    modified = files[0]
    assert modified.removed == (3,)
    assert modified.added == (3, 4)
    assert files[1].old_path == "old.py"
    assert not files[1].hunks
    assert files[2].removed == (1, 2)
    assert files[3].binary
    assert looks_like_diff(PATCH)
    assert not looks_like_diff("where is the --- separator handled?")


def test_the_old_side_is_rebuilt_from_the_new_side_and_the_hunks() -> None:
    new = "def f():\n    a = 1\n    b = 3\n    c = 4\n    return a\n"
    diff = parse_unified_diff(PATCH)[0]
    assert old_text_from(new, diff) == "def f():\n    a = 1\n    b = 2\n    return a\n"
    assert old_text_from("something else entirely\n", diff) is None


def test_the_old_side_keeps_the_files_line_endings() -> None:
    # a CRLF file rebuilt with LF would hash every function as changed since the coverage
    new = "def f():\r\n    a = 1\r\n    b = 3\r\n    c = 4\r\n    return a\r\n"
    diff = parse_unified_diff(PATCH)[0]
    assert old_text_from(new, diff) == "def f():\r\n    a = 1\r\n    b = 2\r\n    return a\r\n"


OLD = """\
    '''Module.'''

    LIMIT = 1


    def body(x):
        return x + 1


    def signature(x):
        return x


    def documented():
        '''Old words.'''
        return 1


    def old_name(values):
        total = 0
        for value in values:
            total += value
        return total


    def removed():
        return 0


    class Box:
        def put(self, item):
            self.item = item
    """
NEW = """\
    '''Module.'''

    LIMIT = 2


    def body(x):
        return x + 2


    def signature(x, y=0):
        return x


    def documented():
        '''New words.'''
        return 1


    def new_name(values):
        total = 0
        for value in values:
            total += value
        return total


    class Box:
        def put(self, item):
            self.item = item

        def take(self):
            return self.item
    """


def _diff_of(old: str, new: str, path: str = "pkg/mod.py") -> str:
    import difflib

    lines = difflib.unified_diff(
        textwrap.dedent(old).splitlines(), textwrap.dedent(new).splitlines(),
        f"a/{path}", f"b/{path}", n=0, lineterm="",
    )  # fmt: skip
    return f"diff --git a/{path} b/{path}\n" + "\n".join(lines) + "\n"


def test_changed_lines_become_changed_symbols_with_what_changed() -> None:
    diff = parse_unified_diff(_diff_of(OLD, NEW))[0]
    changes = pair_moves(file_changes(diff, parse(OLD), parse(NEW)))
    found = {c.qualified_name: (c.change, c.aspects, c.old_qualified_name) for c in changes}
    assert found == {
        "pkg.mod": ("modified", ("module level",), None),
        "pkg.mod.body": ("modified", ("body",), None),
        "pkg.mod.signature": ("modified", ("signature",), None),
        "pkg.mod.documented": ("modified", ("docstring",), None),
        "pkg.mod.new_name": ("renamed", (), "pkg.mod.old_name"),
        "pkg.mod.removed": ("removed", (), None),
        "pkg.mod.Box.take": ("added", (), None),
    }


TS_OLD = """\
/**
 * Adds two numbers.
 */
export function add(a: number, b: number): number {
  return a + b;
}

export function scale(
  value: number,
): number {
  return value * 2;
}
"""
TS_NEW = """\
/**
 * Adds two numbers, exactly.
 */
export function add(a: number, b: number): number {
  return a + b;
}

export function scale(
  value: number, factor = 2,
): number {
  return value * 2;
}
"""


def test_a_typescript_doc_comment_and_header_are_read_as_the_c_family_writes_them() -> None:
    """A `/** … */` edit above a function changes that function, not the module; a header
    runs to the line that opens the body."""

    def ts(code: str) -> ParsedFile:
        return EcmaScriptParser().parse(
            path="web/m.ts", module="web/m.ts", is_package=False, source=code.encode(), sha256=""
        )

    diff = parse_unified_diff(_diff_of(TS_OLD, TS_NEW, "web/m.ts"))[0]
    changes = file_changes(diff, ts(TS_OLD), ts(TS_NEW))
    found = {c.qualified_name: (c.change, c.aspects) for c in changes}
    assert found == {
        "web/m.ts.add": ("modified", ("docstring",)),
        "web/m.ts.scale": ("modified", ("signature",)),
    }


def test_a_moved_file_moves_its_symbols_and_a_deleted_file_removes_them() -> None:
    code = "def kept():\n    return 1\n"
    renamed = parse_unified_diff(
        "diff --git a/pkg/a.py b/pkg/b.py\nsimilarity index 100%\n"
        "rename from pkg/a.py\nrename to pkg/b.py\n"
    )[0]
    changes = file_changes(
        renamed, parse(code, "pkg/a.py", "pkg.a"), parse(code, "pkg/b.py", "pkg.b")
    )
    assert [(c.qualified_name, c.change, c.old_qualified_name) for c in changes] == [
        ("pkg.b", "moved", "pkg.a"), ("pkg.b.kept", "moved", "pkg.a.kept"),
    ]  # fmt: skip
    deleted = parse_unified_diff(PATCH)[2]
    gone = file_changes(deleted, parse("def g():\n    pass\n", "gone.py", "gone"), None)
    assert [(c.qualified_name, c.change) for c in gone] == [
        ("gone", "removed"), ("gone.g", "removed"),
    ]  # fmt: skip


def test_a_symbol_moved_to_another_module_is_paired_by_its_content() -> None:
    body = "def helper(values):\n    return sorted(set(values))\n"
    removal = parse_unified_diff(_diff_of(body, "", "pkg/a.py"))[0]
    addition = parse_unified_diff(_diff_of("", body, "pkg/b.py"))[0]
    changes = pair_moves(
        file_changes(removal, parse(body, "pkg/a.py", "pkg.a"), parse("", "pkg/a.py", "pkg.a"))
        + file_changes(addition, parse("", "pkg/b.py", "pkg.b"), parse(body, "pkg/b.py", "pkg.b"))
    )
    moved = [c for c in changes if c.kind == "Function"]
    assert [(c.qualified_name, c.change, c.old_qualified_name, c.old_path) for c in moved] == [
        ("pkg.b.helper", "moved", "pkg.a.helper", "pkg/a.py")
    ]


TEST_MODULE = """\
    import unittest

    import pytest


    @pytest.fixture(name="db")
    def database(tmp_path):
        return tmp_path


    @pytest.fixture(autouse=True)
    def clean():
        pass


    def setup_module():
        pass


    def test_plain(db, value):
        pass


    @pytest.mark.parametrize("value", [1, 2])
    @pytest.mark.usefixtures("extra")
    def test_marked(value):
        pass


    def helper():
        pass


    class TestGroup:
        def setup_method(self):
            pass

        def test_method(self, db):
            pass

        def not_a_test(self):
            pass


    class Case(unittest.TestCase):
        def setUp(self):
            pass

        def test_unit(self):
            pass
    """


def test_pytest_and_unittest_tests_fixtures_and_setups_are_recognised() -> None:
    conventions = PythonConventions()
    config = conventions.configure({})
    parsed = parse(TEST_MODULE, "tests/test_things.py", "tests.test_things")
    tree = ClassTree({"tests.test_things.Case": [("unittest.TestCase", True)]}, {
        "tests.test_things.Case": ["setUp", "test_unit"],
        "tests.test_things.TestGroup": ["setup_method", "test_method", "not_a_test"],
    })  # fmt: skip
    roles = conventions.roles(parsed, config, tree)
    assert roles.test_code
    tests = {t.qualified_name.rsplit(".", 1)[1]: t for t in roles.tests}
    assert sorted(tests) == ["test_marked", "test_method", "test_plain", "test_unit"]
    assert tests["test_plain"].requests == ("db", "value")
    assert tests["test_marked"].requests == ("extra",)  # parametrized names are no fixtures
    assert tests["test_method"].setups == (
        "tests.test_things.setup_module", "tests.test_things.TestGroup.setup_method",
    )  # fmt: skip
    assert "tests.test_things.Case.setUp" in tests["test_unit"].setups
    fixtures = {f.name: f for f in roles.fixtures}
    assert fixtures["db"].qualified_name == "tests.test_things.database"
    assert fixtures["clean"].autouse
    assert {"tests.test_things.setup_module", "tests.test_things.Case.setUp"} <= set(roles.setups)
    seeds = seeds_of_tests({parsed.path: roles})
    plain = {s.qualified_name: s.via for s in seeds[(parsed.path, "tests.test_things.test_plain")]}
    assert plain == {
        "tests.test_things.database": "fixture db",
        "tests.test_things.clean": "fixture clean",
        "tests.test_things.setup_module": "setup setup_module",
    }


def test_project_options_name_test_files_and_entry_points() -> None:
    conventions = PythonConventions()
    config = conventions.configure(
        {
            "pyproject.toml": '[project.scripts]\ntool = "pkg.cli:main"\n'
            '[tool.pytest.ini_options]\npython_files = ["check_*.py"]\n'
            'python_functions = ["should_"]\n',
            "setup.cfg": "[options.entry_points]\nconsole_scripts =\n    other = pkg.cli:other\n",
        }
    )
    checks = parse("def should_work():\n    pass\n\ndef test_not():\n    pass\n",
                   "checks/check_a.py", "checks.check_a")  # fmt: skip
    roles = conventions.roles(checks, config, ClassTree({}, {}))
    assert [t.qualified_name for t in roles.tests] == ["checks.check_a.should_work"]
    plain = parse("def test_x():\n    pass\n", "checks/test_b.py", "checks.test_b")
    assert not conventions.roles(plain, config, ClassTree({}, {})).tests
    cli = parse(
        "__all__ = ['main']\n\ndef main():\n    pass\n\ndef other():\n    pass\n\n"
        "@app.route('/x')\ndef view():\n    pass\n\n@click.command()\ndef cmd():\n    pass\n\n"
        "@functools.cache\ndef cached():\n    pass\n\n"
        "class Handler(socketserver.BaseRequestHandler):\n"
        "    def handle(self):\n        pass\n\n    def __len__(self):\n        return 0\n\n"
        "def pytest_configure(config):\n    pass\n\n"
        "class Plugin:\n    def pytest_sessionfinish(self, session):\n        pass\n",
        "src/pkg/cli.py",
        "pkg.cli",
    )
    tree = ClassTree({"pkg.cli.Handler": [("socketserver.BaseRequestHandler", True)]}, {})
    entries = dict(conventions.roles(cli, config, tree).entry_points)
    assert entries == {
        "pkg.cli.main": "exported in __all__",
        "pkg.cli.other": "console script other (setup.cfg)",
        "pkg.cli.view": "registered by decorator @app.route",
        "pkg.cli.cmd": "CLI command (@click.command)",
        "pkg.cli.Handler.handle": "may override a method of external base "
        "socketserver.BaseRequestHandler",
        "pkg.cli.Handler.__len__": "dunder method",
        # pytest calls the hooks of a plugin module and of a plugin object it is given
        "pkg.cli.pytest_configure": "pytest hook",
        "pkg.cli.Plugin.pytest_sessionfinish": "pytest hook",
    }
    reasons = [
        r for qn, r in conventions.roles(cli, config, tree).entry_points if qn.endswith("main")
    ]
    assert "console script tool (pyproject.toml)" in reasons


def test_broken_project_files_are_reported_not_raised() -> None:
    config = PythonConventions().configure({"pyproject.toml": "[tool.pytest\n"})
    assert "pyproject.toml" in config.issues


def test_typescript_test_files_are_tests_and_exports_are_entry_points() -> None:
    parser = EcmaScriptParser()
    source = b'import { add } from "./money";\nit("adds", () => { add(1, 2); });\n'
    spec = parser.parse(path="web/money.test.ts", module="web/money.test.ts", is_package=False,
                        source=source, sha256="")  # fmt: skip
    conventions = EcmaScriptConventions()
    roles = conventions.roles(spec, conventions.configure({}), ClassTree({}, {}))
    assert roles.test_code
    assert [t.qualified_name for t in roles.tests] == ["web/money.test.ts"]
    lib = parser.parse(
        path="web/money.ts", module="web/money.ts", is_package=False, sha256="",
        source=b"export function add() {}\nfunction local() {}\nexport class K { m() {} }\n",
    )  # fmt: skip
    entries = dict(
        conventions.roles(lib, conventions.configure({}), ClassTree({}, {})).entry_points
    )
    assert entries == {
        "web/money.ts.add": "exported", "web/money.ts.K": "exported",
        "web/money.ts.K.m": "method of an exported class",
    }  # fmt: skip


# test -> its fixtures (via) and calls; `f` a fixture; `a`..`e` code
_REACH = {
    "t": [("a", EXACT, None), ("n", NAME, None), ("f", EXACT, "fixture f")],
    "u": [("n", NAME, None)],
    "a": [("b", INFERRED, None)],
    "b": [("c", EXACT, None)],
    "n": [("c", EXACT, None), ("d", EXACT, None)],
    "f": [("e", EXACT, None)],
}


def _callers(graph: dict[str, list[tuple[str, int, str | None]]]) -> dict[str, list[Any]]:
    back: dict[str, list[Any]] = defaultdict(list)
    for source, edges in graph.items():
        for target, tier, via in edges:
            back[target].append((source, tier, via))
    return back


def _forward(test: str, graph: dict[str, list[tuple[str, int, str | None]]]) -> dict[str, Any]:
    """A reference written apart from the library: every simple path from `test`, each node
    keeping its best path's weakest tier and, at that tier, the shortest such path."""
    best: dict[str, tuple[int, int]] = {}

    def walk(node: str, tier: int, depth: int, on_path: set[str]) -> None:
        for target, edge_tier, _via in graph.get(node, ()):
            if target in on_path:
                continue
            hop = (min(tier, edge_tier), -(depth + 1))
            if target not in best or hop > best[target]:
                best[target] = hop
            walk(target, hop[0], depth + 1, on_path | {target})

    walk(test, EXACT, 0, {test})
    best.pop(test, None)
    return {node: (tier, -negative) for node, (tier, negative) in best.items()}


def test_a_node_is_exercised_at_its_best_tier_then_its_shortest_distance() -> None:
    callers = _callers(_REACH)
    summary = {}
    for target in ("a", "b", "c", "d", "e", "f"):
        hits = exercising(target, callers, {"t", "u"})
        summary[target] = {t: (h.distance, h.resolution, h.via) for t, h in hits.items()}
    assert summary == {
        "a": {"t": (1, "exact", None)},
        "b": {"t": (2, "inferred", None)},
        "c": {"t": (3, "inferred", None), "u": (2, "name", None)},  # an inferred chain is surer
        "d": {"t": (2, "name", None), "u": (2, "name", None)},
        "e": {"t": (2, "exact", "fixture f")},  # through the fixture, which the chain names
        "f": {"t": (1, "exact", "fixture f")},
    }
    assert exercising("t", callers, {"t", "u"}) == {}  # a test is not its own test
    tiers = reached_ranks(
        ["t", "u"], {s: [(t, tier) for t, tier, _ in e] for s, e in _REACH.items()}
    )
    assert tiers == {
        "a": EXACT,
        "b": INFERRED,
        "c": INFERRED,
        "d": NAME,
        "e": EXACT,
        "f": EXACT,
        "n": NAME,
    }


def test_exercising_agrees_with_a_path_by_path_reference_on_random_graphs() -> None:
    rng = random.Random(16)
    for _ in range(200):
        nodes = [f"n{i}" for i in range(9)]
        graph: dict[str, list[tuple[str, int, str | None]]] = defaultdict(list)
        for _edge in range(rng.randint(5, 22)):
            source, target = rng.sample(nodes, 2)
            graph[source].append((target, rng.choice((EXACT, INFERRED, NAME)), None))
        tests = set(rng.sample(nodes, 3))
        callers = _callers(graph)
        for target in nodes:
            found = {t: (h.tier, h.distance) for t, h in exercising(target, callers, tests).items()}
            expected = {
                t: _forward(t, graph)[target] for t in tests if target in _forward(t, graph)
            }
            expected.pop(target, None)
            assert found == expected, (dict(graph), tests, target)
        reached = reached_ranks(
            sorted(tests), {s: [(t, k) for t, k, _ in e] for s, e in graph.items()}
        )
        forward = [_forward(t, graph) for t in sorted(tests)]
        expected_tiers = {
            n: max(f[n][0] for f in forward if n in f)
            for n in nodes
            if any(n in f for f in forward)
        }
        starts_left_out = {n: tier for n, tier in reached.items() if n not in tests}
        assert starts_left_out == {n: t for n, t in expected_tiers.items() if n not in tests}


def _candidate(
    name: str, *, entries: tuple[str, ...] = (), parent: str = "Module", parent_name: str = "m"
) -> DeadCandidate:
    kind = "Method" if parent == "Class" else "Function"
    symbol = SymbolRef(f"r:m.{name}", f"m.{name}", kind, "r", Location("m.py", 1, 2))
    return DeadCandidate(symbol, name, "python", entries, (), parent, parent_name, (), None)


@pytest.mark.parametrize(
    ("name", "entries", "mentions", "expected"),
    [
        ("_helper", (), 0, 0.95),
        ("helper", (), 0, 0.8),  # public: may be used outside the repository
        ("_helper", (), 1, 0.4),
        ("_helper", ("decorated by @register_thing (may register it)",), 0, 0.35),
        ("_helper", ("exported in __all__",), 0, None),
    ],
)
def test_dead_code_confidence_weighs_what_the_graph_cannot_see(
    name: str, entries: tuple[str, ...], mentions: int, expected: float | None
) -> None:
    verdict = judge(_candidate(name, entries=entries), mentions)
    assert (verdict.confidence if verdict else None) == expected


@pytest.mark.parametrize(
    ("name", "parent", "parent_name", "expected", "public"),
    [
        # rich's IPython hook was .95 and its public methods .90 with no caveat (issue 55)
        ("_repr_mimebundle_", "Class", "JupyterMixin", 0.3, True),
        ("_ipython_display_", "Class", "Widget", 0.3, True),
        ("get_queryset", "Class", "OrderView", 0.3, True),
        ("clean_email", "Class", "SignupForm", 0.3, True),
        ("pytest_configure", "Module", "m", 0.3, True),
        ("print_exception", "Class", "Console", 0.8, True),  # a public class's method
        ("add_section", "Class", "_Private", 0.9, False),  # a private class's method
        ("_helper", "Class", "Console", 0.95, False),
        ("helper", "Function", "outer", 0.9, False),  # nested: not reachable from outside
        ("_repr_html", "Class", "Console", 0.95, False),  # not the hook's name
    ],
)  # fmt: skip
def test_hooks_and_public_methods_say_code_outside_may_use_them(
    name: str, parent: str, parent_name: str, expected: float, public: bool
) -> None:
    candidate = _candidate(name, parent=parent, parent_name=parent_name)
    verdict = judge(candidate, 0, PYTHON.hooks)
    assert verdict is not None
    assert verdict.confidence == expected
    caveats = [r for r in verdict.reasons if r.startswith("public: code outside")]
    assert len(caveats) == public, verdict.reasons
    if expected == 0.3:
        assert "calls by its name" in caveats[0]


def test_hooks_are_a_table_each_language_declares() -> None:
    assert Hook("_repr_*_", "IPython and Jupyter (a rich display hook)") in PYTHON.hooks
    # a hook names the kinds it applies to: a module function `handle` is no Django command
    function = judge(_candidate("handle"), 0, PYTHON.hooks)
    assert function is not None
    assert function.confidence == 0.8
    handle = judge(_candidate("handle", parent="Class", parent_name="Command"), 0, PYTHON.hooks)
    assert handle is not None
    assert handle.confidence == 0.3
    verdict = judge(_candidate("_repr_png_", parent="Class", parent_name="Plot"), 0)
    assert verdict is not None
    assert verdict.confidence == 0.95  # without the language's table: a private method


@pytest.mark.parametrize(
    ("test", "path", "subject", "subject_path", "expected"),
    [
        ("tests.test_x.test_echo_via_pager", "tests/test_x.py", "click.termui.echo_via_pager",
         "src/click/termui.py", 2),
        ("tests.test_termui.test_prompt", "tests/test_termui.py", "click.termui.echo_via_pager",
         "src/click/termui.py", 1),
        ("tests.test_basic.test_run", "tests/test_basic.py", "click.termui.echo",
         "src/click/termui.py", 0),
        ("tests.test_utils.test_x", "tests/test_utils.py", "pkg.utils.f", "pkg/utils.py", 0),
        # a module named `tests` is not what every test named `test_..._tests` is about
        ("tests.test_impact.test_two_tests", "tests/test_impact.py", "pkg.impact.tests",
         "pkg/impact/tests.py", 0),
    ],
)  # fmt: skip
def test_tests_named_after_the_change_rank_first(
    test: str, path: str, subject: str, subject_path: str, expected: int
) -> None:
    assert affinity(test, path, subject, subject_path) == expected


def test_tests_to_run_come_changed_then_certain_then_named_then_near() -> None:
    def order(
        *, changed: bool = False, named: int = 0, certain: bool, distance: int
    ) -> tuple[bool, bool, bool, int, int, int]:
        return run_order(
            changed=changed, affinity=named, certain=certain, distance=distance, reaches=1
        )

    tests = {
        "by_name_near": order(certain=False, distance=1),
        "certain_far": order(certain=True, distance=3),
        "certain_near": order(certain=True, distance=1),
        "named_by_name": order(named=2, certain=False, distance=4),
        "named_certain_far": order(named=2, certain=True, distance=3),
        "edited": order(changed=True, certain=False, distance=0),
    }
    ranked = sorted(tests, key=tests.__getitem__)
    # a test three certain calls away runs the code more often than one a name match away;
    # a name match never lifts a test above a certain one, however plainly it is named
    assert ranked == [
        "edited", "named_certain_far", "certain_near", "certain_far", "named_by_name",
        "by_name_near",
    ]  # fmt: skip


def test_runner_ids() -> None:
    assert runner_id("tests/test_a.py", "tests.test_a.TestB.test_c", "tests.test_a") == (
        "tests/test_a.py::TestB::test_c"
    )
    assert runner_id("web/money.test.ts", "web/money.test.ts", None) == "web/money.test.ts"


@pytest.mark.parametrize("revisions", ["--output=/tmp/x", "HEAD..--output=x", "a...-p"])
def test_a_revision_range_never_passes_an_option_to_git(revisions: str) -> None:
    with pytest.raises(InvalidArgumentError, match="never starts with '-'"):
        DiffSpec(revisions=revisions)
    assert DiffSpec(revisions="main..HEAD").label == "main..HEAD"


def test_a_patch_never_reads_outside_the_repository(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "inside.py").write_text("x = 2\n")
    (tmp_path / "outside.py").write_text("secret = 1\n")
    patch = "".join(
        f"--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-{old}\n+{new}\n"
        for name, old, new in [("../outside.py", "secret = 0", "secret = 1"),
                               ("inside.py", "x = 1", "x = 2")]
    )  # fmt: skip
    changes = {c.diff.new_path: c for c in read_changes(root, DiffSpec(patch=patch))}
    assert changes["inside.py"].new_text == "x = 2\n"
    assert changes["../outside.py"].new_text is None  # not read: outside the repository
    assert not changes["../outside.py"].new_on_disk


class _CallGraph:
    """A reader of a blast radius over a fixed graph: callee id -> (caller id, tier)."""

    def __init__(self, callers: dict[str, list[tuple[str, str]]]) -> None:
        self.callers = callers

    def affected_step(self, ids: list[str], limit_per_node: int) -> list[ImpactStep]:
        return [
            ImpactStep(callee, _symbol(caller), "CALLS", tier, (1,), 0.0, False)
            for callee in ids
            for caller, tier in self.callers.get(callee, [])
        ]

    def name_importers(self, named: object) -> list[ImpactStep]:
        return []

    def overridden_methods(self, *args: object, **kwargs: object) -> list[SymbolRef]:
        return []

    def unresolved_callers(self, *args: object, **kwargs: object) -> list[SymbolRef]:
        return []


def _symbol(name: str) -> SymbolRef:
    return SymbolRef(name, f"m.{name}", "Function", "r", Location("m.py", 1, 2))


def test_a_certain_chain_outranks_an_earlier_name_match_and_is_walked_on() -> None:
    # target <-exact- B <-exact- A, target <-name- A, A <-exact- C: A is certain (through B),
    # and C, A's certain caller, is affected
    reader = _CallGraph(
        {"target": [("A", "name"), ("B", "exact")], "B": [("A", "exact")], "A": [("C", "exact")]}
    )
    change = ChangedSymbol(
        "m.target", "Function", "modified", ("body",), Location("m.py", 1, 2), "python",
        "target", True, False,
    )  # fmt: skip
    found, truncated = blast_radius(reader, "r", [change], {}, BlastOptions(depth=3))  # type: ignore[arg-type]
    assert not truncated
    assert [(a.qualified_name, a.certain, a.distance) for a in found] == [
        ("m.B", True, 1), ("m.A", True, 2), ("m.C", True, 3),
    ]  # fmt: skip


KINDS = """\
    async def throw(exc):
        raise exc
        if False:
            yield


    def made(values):
        def inner():
            yield from values
        return inner
    """


def test_a_function_made_another_kind_is_an_interface_change() -> None:
    # dropping `yield` makes an async generator a coroutine function: no header says so
    new = KINDS.replace("            yield\n", "            pass\n").replace(
        "return inner", "return list(inner())"
    )
    diff = parse_unified_diff(_diff_of(KINDS, new))[0]
    found = {c.qualified_name: c.aspects for c in file_changes(diff, parse(KINDS), parse(new))}
    # a `yield` in a nested function leaves the outer one a plain function
    assert found == {"pkg.mod.throw": ("kind", "body"), "pkg.mod.made": ("body",)}


REDEFINED = """\
    class View:
        def as_view(cls, name):
            if cls.init_every_request:

                def view(**kwargs):
                    return cls().dispatch_request(**kwargs)

            else:
                self = cls()

                def view(**kwargs):
                    return self.dispatch_request(**kwargs)

            return view

        @property
        def size(self):
            return self._size

        @size.setter
        def size(self, value):
            self._size = value
    """


def test_a_name_defined_twice_changes_the_definition_that_holds_the_line() -> None:
    # flask's `View.as_view` defines `view` in both branches: a change in the first is not
    # one in the second (nor in `as_view`), and a setter's body is the setter's
    new = REDEFINED.replace("return cls().dispatch_request(**kwargs)", "return None").replace(
        "self._size = value", "self._size = value + 1"
    )
    diff = parse_unified_diff(_diff_of(REDEFINED, new))[0]
    found = [
        (c.qualified_name, c.ordinal, c.aspects, c.start_line)
        for c in file_changes(diff, parse(REDEFINED), parse(new))
    ]
    assert found == [
        ("pkg.mod.View.as_view.view", 1, ("body",), 5),
        ("pkg.mod.View.size", 2, ("body",), 20),
    ]


def test_a_redefinition_is_found_as_its_own_node() -> None:
    from graphrag_code.graph.records import FileNode
    from graphrag_code.impact.analysis import _Nodes

    def node(id: str, line: int) -> FileNode:
        ref = SymbolRef(id, "pkg.mod.View.as_view.view", "Function", "r", Location("m.py", line))
        return FileNode(ref, "view", False, None, 0.0)

    nodes = _Nodes(
        [node("r:pkg.mod.View.as_view.view", 4), node("r:pkg.mod.View.as_view.view#2", 10)]
    )
    assert nodes.find("m.py", "pkg.mod.View.as_view.view").symbol.id.endswith("view")  # type: ignore[union-attr]
    assert nodes.find("m.py", "pkg.mod.View.as_view.view", 2).symbol.id.endswith("#2")  # type: ignore[union-attr]
    assert nodes.find("m.py", "pkg.mod.View.as_view.view", 3) is None
