"""The tests that read what changed code kept (`impact.kept`), and the extras: static
predictions the fresh coverage contradicts, listed after the tests to run. Offline, on a
reader that answers from tables (the mutant benchmark's misses, BENCHMARKS §21)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from graphrag_code.graph import GraphReader
from graphrag_code.graph.records import (
    KeptCode,
    RanInto,
    ReachBack,
)
from graphrag_code.impact.tests import exercising_tests
from graphrag_code.languages.python.run_rules import singleton_setup, stores_result

from .impact_fakes import TableReader


class _Reader(TableReader):
    """What `exercising_tests` reads: static REACHES edges into each node (test, tier), the
    tests that ran each node, the readers of module state, and class members with code."""

    def __init__(
        self,
        *,
        reaches: dict[str, list[str]] | None = None,
        ran: Sequence[RanInto] = (),
        readers: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] | None = None,
        code: Sequence[KeptCode] = (),
        members: Sequence[tuple[str, str, str, str]] = (),
        classes: dict[str, list[tuple[str, str, str]]] | None = None,
    ) -> None:
        self.reaches = reaches or {}
        super().__init__(ran=ran)
        self.readers = readers or {}
        self.code = list(code)
        self.members = list(members)
        self.classes = classes or {}
        self.asked_readers: list[str] = []

    def reach_back(
        self, ids: Sequence[str], *, resolutions: Sequence[str] | None = None, limit: int
    ) -> ReachBack:
        callers = {i: [(t, "exact", None) for t in self.reaches.get(i, [])] for i in ids}
        tests = frozenset(t for i in ids for t in self.reaches.get(i, []))
        return ReachBack({i: c for i, c in callers.items() if c}, tests, False)

    def kept_state_code(self, ids: Sequence[str], *, certain: Sequence[str]) -> list[KeptCode]:
        """`readers`: node -> (modules, tests), one piece of code per module; or `code`."""
        self.asked_readers += ids
        return [
            KeptCode((i,), module, tests, False, 0)
            for i in ids
            if i in self.readers
            for module in self.readers[i][0]
            for tests in [self.readers[i][1]]
        ] + [c for c in self.code if set(c.ids) & set(ids)]

    def shared_members(self, ids: Sequence[str]) -> list[tuple[str, str, str, str, str]]:
        return [(*m, "python") for m in self.members if m[0] in ids]

    def class_members(
        self, ids: Sequence[str]
    ) -> dict[str, tuple[str, list[tuple[str, str, str]]]]:
        return {i: ("python", self.classes[i]) for i in ids if i in self.classes}


def _tests(reader: _Reader, *targets: str) -> list[tuple[str, str]]:
    found, _, _ = exercising_tests(cast(GraphReader, reader), {t: (t,) for t in targets})
    return [(t.id, "extra" if t.extra else "ran" if t.ran else "kept" if t.kept else "static")
            for t in found]  # fmt: skip


def test_code_run_at_import_selects_the_tests_that_ran_its_modules_code() -> None:
    # structlog's `make_filtering_bound_logger` runs at import, in `_config`'s module-level
    # code, which keeps the class it returns as the default: tests that only ran `_config`'s
    # code failed when a mutant of it returned None, and never ran it themselves
    reader = _Reader(
        ran=[RanInto("make", ("t_make",), "h", "h", outside=True)],
        readers={"make": (("pkg._config", "pkg._native"), ("t_config", "t_make"))},
    )
    assert _tests(reader, "make") == [("t_make", "ran"), ("t_config", "kept")]


def test_only_code_that_ran_outside_every_test_asks_for_its_modules_readers() -> None:
    reader = _Reader(
        reaches={"edited": ["t_e"]},
        ran=[RanInto("plain", ("t_plain",), "h", "h"), RanInto("edited", ("t_e",), "h2", "h1")],
        readers={"plain": (("pkg.m",), ("t_other",)), "edited": (("pkg.m",), ("t_other",))},
    )
    assert _tests(reader, "plain", "edited") == [("t_plain", "ran"), ("t_e", "static")]
    assert reader.asked_readers == []  # fresh code: what ran; changed code: predicted


def test_a_memo_on_an_object_made_at_import_selects_the_tests_that_read_it() -> None:
    # marshmallow's `URL.RegexMemoizer._regex_generator` ran in the first test that built a
    # URL regex; `__call__` keeps its result on the memoizer made at import, and the later
    # tests read it: 9 of 13 failing tests never ran the mutated function
    call = "def __call__(self, key):\n    if key not in self._memo:\n" + (
        "        self._memo[key] = self._regex_generator(key)\n    return self._memo[key]\n"
    )
    reader = _Reader(
        ran=[
            RanInto("generate", ("t_first",), "h", "h"),
            RanInto("call", ("t_first", "t_later"), "h", "h"),
        ],
        members=[("generate", "_regex_generator", "call", call)],
    )
    assert _tests(reader, "generate") == [("t_first", "ran"), ("t_later", "kept")]


def test_storing_a_methods_result_on_the_instance_is_read_from_the_code() -> None:
    assert stores_result("    self._memo[key] = self._make(key)\n", "_make")
    assert stores_result("x = 1\n    self.cached = self._make()\n", "_make")
    assert stores_result("    cls._memo[a, b] = cls._make(a)\n", "_make")
    assert not stores_result("    value = self._make(key)\n", "_make")  # kept nowhere
    assert not stores_result("    self.memo[key] = self._make_other(key)\n", "_make")
    assert not stores_result("    self.memo[key] = other._make(key)\n", "_make")


# sqlparse's `Lexer`: the first test that lexes makes the instance, keeps it on the class
# and sets it up; every later test reads the keywords the setup added (stop 66, part 3)
_LEXER = [
    (
        "get",
        "get_default_instance",
        "def get_default_instance(cls):\n"
        "    if cls._default is None:\n        cls._default = cls()\n"
        "        cls._default.default_initialization()\n    return cls._default\n",
    ),
    (
        "init",
        "default_initialization",
        "def default_initialization(self):\n    self.clear()\n    self.add(KEYWORDS)\n",
    ),
    ("clear", "clear", "def clear(self):\n    self._keywords = []\n"),
    ("add", "add", "def add(self, k):\n    self._keywords.append(k)\n"),
    ("lex", "lex", "def lex(self, s):\n    return self.is_keyword(s)\n"),
    ("is_keyword", "is_keyword", "def is_keyword(self, s):\n    return s in self._keywords\n"),
]


def test_a_singleton_kept_on_its_class_is_set_up_for_every_test_that_asks() -> None:
    setup = singleton_setup(_LEXER)
    assert {name for name, makers in setup.items() if makers == {"get"}} == {
        "default_initialization", "clear", "add",
    }  # fmt: skip
    assert not {"lex", "is_keyword"} & setup.keys()  # ran by whoever calls them
    made = [("get", "instance", "def instance(cls):\n    cls._one = cls()\n    return cls._one\n"),
            ("new", "__init__", "def __init__(self):\n    self.table = {}\n")]  # fmt: skip
    assert singleton_setup(made) == {"__init__": {"get"}}
    plain = [("m", "make", "def make(self):\n    self._one = Lexer()\n    self._one.setup()\n"),
             ("s", "setup", "def setup(self):\n    pass\n")]  # fmt: skip
    assert singleton_setup(plain) == {}  # kept on an instance: not shared by every test


def test_the_setup_of_a_kept_singleton_selects_the_tests_that_asked_for_it() -> None:
    # a mutant of `default_initialization` failed 143 tests; three ran it
    reader = _Reader(
        ran=[
            RanInto("init", ("t_first",), "h", "h"),
            RanInto("get", ("t_first", "t_later"), "h", "h"),
            RanInto("is_keyword", ("t_later",), "h", "h"),
        ],
        classes={node: _LEXER for node in ("init", "is_keyword")},
    )
    assert _tests(reader, "init") == [("t_first", "ran"), ("t_later", "kept")]
    assert _tests(reader, "is_keyword") == [("t_later", "ran")]


def test_static_predictions_for_fresh_coverage_are_extras_listed_last() -> None:
    # the coverage of `f` is fresh: `t_static` reaches it through a certain chain but never
    # ran it, an extra; `g` changed since the coverage, so its prediction is to be run
    reader = _Reader(
        reaches={"f": ["t_static", "t_ran"], "g": ["t_g"]},
        ran=[RanInto("f", ("t_ran",), "h", "h"), RanInto("g", ("t_old",), "h2", "h1")],
    )
    assert _tests(reader, "f", "g") == [
        ("t_ran", "ran"), ("t_g", "static"), ("t_static", "extra"),
    ]  # fmt: skip


def test_without_coverage_nothing_is_an_extra() -> None:
    reader = _Reader(reaches={"f": ["t_a", "t_b"]})
    assert _tests(reader, "f") == [("t_a", "static"), ("t_b", "static")]


def _reasons(reader: _Reader, interface: frozenset[str], *targets: str) -> list[tuple[str, str]]:
    found, _, stale = exercising_tests(
        cast(GraphReader, reader), {t: (t,) for t in targets}, interface=interface
    )
    assert all(stale.get(t) == "interface" for t in interface)
    return [(t.id, t.reason) for t in found]


def test_a_changed_interface_runs_the_static_prediction_too() -> None:
    # aiostream's `stream.throw`: `if False: yield` dropped makes an async generator a
    # coroutine function; `test_merge` builds the stream without running a line of it (no
    # coverage), and fails building it: a change of kind, parameters, defaults, decorators
    # or name is run for every test that reaches the function, not only those that ran it
    reader = _Reader(
        reaches={"throw": ["t_builds", "t_ran"]}, ran=[RanInto("throw", ("t_ran",), "h", "h")]
    )
    interface = "reaches it (certain, 1 step); its interface changed (coverage cannot see that)"
    assert _reasons(reader, frozenset({"throw"}), "throw") == [
        ("t_ran", "ran it (coverage)"), ("t_builds", interface),
    ]  # fmt: skip
    # a body edit keeps the coverage's short list: the static prediction is an extra
    assert _tests(reader, "throw") == [("t_ran", "ran"), ("t_builds", "extra")]


def test_code_every_test_ran_is_the_runners_and_reads_nothing() -> None:
    # pytest runs pluggy's hooks around every test: `_multicall` ran outside every test and
    # in all 91, so "ran code of `_callers`" named the whole suite for any mutant there;
    # the tests that ran the module's other code are the readers (a test using `pm`)
    hooks = ("pkg._hooks",)
    reader = _Reader(
        ran=[RanInto("register", ("t_pm",), "h", "h", outside=True)],
        code=[
            KeptCode(("register",), hooks[0], ("t_pm", "t_other", "t_plain"), True, 3),
            KeptCode(("register",), hooks[0], ("t_pm", "t_other"), True, 3),
        ],
    )
    assert _tests(reader, "register") == [("t_pm", "ran"), ("t_other", "kept")]
    # an autouse fixture's code that ran in every test but never outside them still reads
    reader.code = [KeptCode(("register",), hooks[0], ("t_pm", "t_other", "t_plain"), False, 3)]
    assert _tests(reader, "register") == [("t_pm", "ran"), ("t_other", "kept"), ("t_plain", "kept")]
