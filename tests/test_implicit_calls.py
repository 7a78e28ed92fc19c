"""Calls without a call expression (issue 19), linked offline: property reads, assignments and
deletions (`tests/fixtures/trace/tr/accessors.py`) and the special methods that syntax runs
(`tr/dunders.py`), each with the receiver's tier when its class is known, and no edge when it
is not (an unknown value, a class object, a builtin); indexed into the real Neo4j: exact
names of what is defined twice in one file (`tr/redefined.py`) naming one node for `path`,
and incremental runs that relink the readers of a new property or descriptor."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.ingest.report import IngestReport
from graphrag_code.model import EdgeKind
from graphrag_code.settings import Settings

from .conftest import wipe
from .linking_helpers import link_folder
from .relinking import assert_same_as_clean_index, write_file

TRACE = Path(__file__).parent / "fixtures" / "trace"
REPO = "tr"

# (caller, callee, ordinal of the callee's definition: 2 and 3 for a setter / deleter)
Key = tuple[str, str, int]
Calls = dict[Key, tuple[str | None, str | None]]


@pytest.fixture(scope="module")
def calls() -> Calls:
    """Every CALLS edge between the fixtures' functions -> (tier, via), linked offline, names
    without the `tr.` prefix (calls of builtins, such as `len` itself, left out)."""
    linked = link_folder(TRACE, repo=REPO, strip=f"{REPO}.")
    return {
        (link.source, link.target, link.ordinal): (link.tier, link.edge.via)
        for link in linked.links
        if link.edge.kind == EdgeKind.CALLS and not link.edge.external
    }


def _check(calls: Calls, expected: list[tuple[str, str, str, str]], ordinal: int = 1) -> None:
    """Each (caller, callee, tier, a phrase of the reason) is an edge of the graph."""
    for caller, callee, tier, reason in expected:
        key = (caller, callee, ordinal)
        assert key in calls, f"missing {key}"
        found_tier, via = calls[key]
        assert found_tier == tier, f"{key}: {found_tier}"
        assert reason in (via or ""), f"{key}: {via!r}"


def _callees(calls: Calls, caller: str) -> set[tuple[str, int]]:
    return {(callee, ordinal) for source, callee, ordinal in calls if source == caller}


# -- properties ----------------------------------------------------------------------------------
def test_property_reads_call_the_getter(calls: Calls) -> None:
    _check(
        calls,
        [
            # `self`: the class is certain
            ("accessors.Base.plain", "accessors.Base.size", "exact", "reads the property"),
            # an annotated parameter: by its declared type
            ("accessors.read", "accessors.Base.size", "inferred", "`.size` reads the property"),
            ("accessors.read", "accessors.Base.total", "inferred", "reads the property"),
            # a `cached_property` of the project's own (werkzeug / django style), by name
            ("accessors.read", "accessors.Base.lazy", "inferred", "reads the property"),
        ],
    )


def test_property_assignment_and_deletion_call_setter_and_deleter(calls: Calls) -> None:
    # `self.size += 1` in a subclass reads and assigns the base's property
    _check(calls, [("accessors.Child.grow", "accessors.Base.size", "exact", "reads")])
    _check(calls, [("accessors.Child.grow", "accessors.Base.size", "exact", "setter")], ordinal=2)
    _check(calls, [("accessors.assign", "accessors.Base.size", "inferred", "setter")], ordinal=2)
    _check(calls, [("accessors.Child.reset", "accessors.Base.size", "exact", "deleter")], ordinal=3)
    # assigning is not reading; deleting is neither
    assert ("accessors.Base.size", 1) not in _callees(calls, "accessors.assign")
    assert _callees(calls, "accessors.Child.reset") == {("accessors.Base.size", 3)}


def test_descriptors_in_a_class_body_run_get_set_and_delete(calls: Calls) -> None:
    _check(
        calls,
        [
            ("descriptors.Settings.configure", "descriptors.Setting.__get__", "inferred",
             "`.debug` runs the descriptor's `__get__`"),
            ("descriptors.Settings.configure", "descriptors.Setting.__set__", "inferred",
             "`.secret` runs the descriptor's `__set__`"),
            ("descriptors.Settings.configure", "descriptors.Setting.__delete__", "inferred",
             "`__delete__`"),
            # inherited from a base class's body
            ("descriptors.read", "descriptors.ReadOnly.__get__", "inferred", "`.version`"),
            # `Setting[bool](...)` builds a `Setting`
            ("descriptors.Settings", "descriptors.Setting.__init__", "exact", ""),
        ],
    )  # fmt: skip
    # `label` holds a `Plain`, which has no `__get__`
    assert _callees(calls, "descriptors.read") == {("descriptors.ReadOnly.__get__", 1)}


def test_no_property_edge_without_a_known_instance(calls: Calls) -> None:
    # a property without a setter: assigning runs no function of the project
    assert _callees(calls, "accessors.assign_read_only") == set()
    # an unannotated parameter: its class is unknown
    assert _callees(calls, "accessors.unknown") == set()
    # `Base.size` on the class is the property object: nothing runs
    assert _callees(calls, "accessors.on_class") == set()
    # a plain method read without a call is not a call
    assert _callees(calls, "accessors.method_reference") == set()


# -- special methods -----------------------------------------------------------------------------
def test_statements_run_special_methods(calls: Calls) -> None:
    _check(
        calls,
        [
            ("dunders.use_with", "dunders.Vector.__enter__", "inferred", "`with` runs"),
            ("dunders.use_with", "dunders.Vector.__exit__", "inferred", "`with` runs"),
            # a call's declared return type, where value flow is not sure of the result
            ("dunders.use_declared_result", "dunders.Vector.__enter__", "inferred", "`with`"),
            ("dunders.use_declared_result", "dunders.Vector.__exit__", "inferred", "`with`"),
            ("dunders.use_for", "dunders.Vector.__iter__", "inferred", "`for` runs"),
            ("dunders.use_len_next", "dunders.Vector.__len__", "inferred", "`len` runs"),
            ("dunders.use_len_next", "dunders.Counter.__next__", "inferred", "`next` runs"),
            ("dunders.use_items", "dunders.Vector.__getitem__", "inferred", "`[]`"),
            ("dunders.use_items", "dunders.Vector.__setitem__", "inferred", "`[]`"),
            ("dunders.use_items", "dunders.Vector.__delitem__", "inferred", "`[]`"),
            ("dunders.use_update", "dunders.Vector.__getitem__", "inferred", "`[]`"),
            ("dunders.use_update", "dunders.Vector.__setitem__", "inferred", "`[]`"),
            ("dunders.use_call", "dunders.Vector.__call__", "inferred", ""),
        ],
    )
    # `del v[2]` deletes, it does not read
    assert _callees(calls, "dunders.use_delete") == {("dunders.Vector.__delitem__", 1)}


def test_operators_run_the_left_operands_method(calls: Calls) -> None:
    _check(
        calls,
        [
            ("dunders.use_in", "dunders.Vector.__contains__", "inferred", "`in` runs"),
            ("dunders.use_operators", "dunders.Vector.__neg__", "inferred", "`-` runs"),
            ("dunders.use_operators", "dunders.Vector.__add__", "inferred", "`+` runs"),
            ("dunders.use_operators", "dunders.Vector.__eq__", "inferred", "`==` runs"),
            ("dunders.use_operators", "dunders.Vector.__lt__", "inferred", "`<` runs"),
            # `self + self` inside the class: the receiver's class is certain
            ("dunders.Vector.double", "dunders.Vector.__add__", "exact", "`+` runs"),
        ],
    )


def test_conversions_to_text(calls: Calls) -> None:
    _check(
        calls,
        [
            ("dunders.use_strings", "dunders.Vector.__str__", "inferred", ""),
            ("dunders.use_strings", "dunders.Vector.__repr__", "inferred", ""),
            ("dunders.use_format", "dunders.Formatted.__format__", "inferred", "f-string"),
        ],
    )
    # `{v}` without `__format__`: object's `__format__` runs `__str__`; with one, only it
    assert "f-string" in (calls[("dunders.use_strings", "dunders.Vector.__str__", 1)][1] or "")
    assert ("dunders.Formatted.__str__", 1) not in _callees(calls, "dunders.use_format")
    # a class with `__repr__` alone: object's `__str__` (and `__format__`) run it
    _check(calls, [("dunders.use_repr_fallback", "dunders.Named.__repr__", "inferred", "`str`")])
    assert "f-string" in (
        calls[("dunders.use_repr_fallback", "dunders.Named.__repr__", 1)][1] or ""
    )


def test_truth_tests_run_bool_else_len(calls: Calls) -> None:
    _check(
        calls,
        [
            ("dunders.use_bool", "dunders.Vector.__bool__", "inferred", "`truth test` runs"),
            ("dunders.use_truth", "dunders.Vector.__bool__", "inferred", "`truth test` runs"),
            ("dunders.use_truth", "dunders.Sized.__len__", "inferred", "`truth test` runs"),
            ("dunders.use_or", "dunders.Sized.__len__", "inferred", "`truth test` runs"),
        ],
    )
    # `__bool__` wins over `__len__`; a class with neither runs nothing of its own
    assert _callees(calls, "dunders.use_bool") == {("dunders.Vector.__bool__", 1)}
    assert _callees(calls, "dunders.use_truth") == {
        ("dunders.Vector.__bool__", 1),
        ("dunders.Sized.__len__", 1),
    }
    assert _callees(calls, "dunders.use_or") == {("dunders.Sized.__len__", 1)}


def test_no_special_method_edge_without_a_known_class(calls: Calls) -> None:
    # `Any` and unannotated operands: unknown class
    assert _callees(calls, "dunders.unknown") == set()
    # builtin operands: their methods are not the project's
    assert _callees(calls, "dunders.builtins_only") == set()


# -- names defined twice -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def graph(session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory) -> CodeGraph:
    """The fixtures indexed."""
    wipe(session_client)
    build_graph(TRACE, session_client, repo=REPO, state_dir=tmp_path_factory.mktemp("state"))
    return CodeGraph(Settings(embedder="hashing"), client=session_client)


@pytest.mark.parametrize(
    ("source", "target"),
    [
        # a property with a setter: the getter (where reads land, and which calls `helper`)
        ("tr.redefined.start", "tr.redefined.Box.size"),
        ("tr.redefined.Box.size", "tr.redefined.helper"),
        ("tr.redefined.start", "tr.redefined.helper"),
        # `@overload` variants and a function defined in two branches: the first definition
        ("tr.redefined.start", "tr.redefined.pick"),
        ("tr.redefined.twice", "tr.redefined.helper"),
    ],
)
def test_exact_names_of_redefinitions_resolve_to_the_first(
    graph: CodeGraph, source: str, target: str
) -> None:
    found = graph.path(source, target, repo=REPO)
    assert found.found, f"no path {source} -> {target}"
    for end in (found.source, found.target, found.steps[0], found.steps[-1]):
        assert "#" not in end.id, end.id  # not a later definition (`…#2`)
    assert found.source.qualified_name == source
    assert found.target.qualified_name == target


def test_symbol_lookup_of_a_redefined_name_is_its_first_definition(graph: CodeGraph) -> None:
    looked_up = graph.symbol("tr.redefined.Box.size", repo=REPO)
    assert looked_up.definition is not None
    assert looked_up.definition.symbol.id == "tr:tr.redefined.Box.size"  # the getter, not `#2`


# -- incremental runs (last: it wipes the database the fixtures above read) ----------------------


def _targets(neo4j: Neo4jClient, caller: str) -> set[str]:
    """The ids `caller` of repository `inc` calls."""
    rows = neo4j.read(
        "MATCH (a:Code {repo: 'inc', qualified_name: $a})-[:CALLS]->(b:Code) RETURN b.id AS b",
        {"a": caller},
    )
    return {row["b"] for row in rows}


def _write_box_factory(work: Path) -> None:
    """`app.factory.make() -> Box`: what the readers of `make().size` go through."""
    write_file(work, "app/__init__.py", "")
    write_file(
        work, "app/factory.py", "from .box import Box\n\n\ndef make() -> Box:\n    return Box()\n"
    )


def test_incremental_relinks_readers_when_a_method_becomes_a_property(
    neo4j: Neo4jClient, tmp_path: Path
) -> None:
    """Only decorators change in one file (no name appears or goes), yet the reads of
    `make().size` in a file that names nothing of it now run a getter and its assignments a
    setter: the incremental run relinks that file and ends equal to a clean index."""
    work = tmp_path / "work"
    plain = "class Box:\n    def size(self) -> int:\n        return 1\n"
    write_file(work, "app/box.py", plain)
    _write_box_factory(work)
    # `user` names nothing of `box`: only the property lookup ties it to that file
    write_file(
        work,
        "app/user.py",
        "from .factory import make\n\n\ndef read() -> object:\n    return make().size\n\n\n"
        "def write() -> None:\n    make().size = 2\n",
    )

    def index() -> IngestReport:
        return build_graph(work, neo4j, repo="inc", state_dir=tmp_path / "state")

    def targets(caller: str) -> set[str]:
        return _targets(neo4j, caller)

    index()
    # a method read without a call runs nothing
    assert targets("app.user.read") == {"inc:app.factory.make"}
    write_file(
        work,
        "app/box.py",
        "class Box:\n    @property\n    def size(self) -> int:\n        return 1\n\n"
        "    @size.setter\n    def size(self, value: int) -> None:\n        pass\n",
    )
    report = index()
    assert report.mode == "incremental"
    assert targets("app.user.read") == {"inc:app.factory.make", "inc:app.box.Box.size"}
    assert targets("app.user.write") == {"inc:app.factory.make", "inc:app.box.Box.size#2"}
    assert_same_as_clean_index(neo4j, work, tmp_path, "inc")


def test_incremental_relinks_readers_when_a_class_attribute_becomes_a_descriptor(
    neo4j: Neo4jClient, tmp_path: Path
) -> None:
    """`size = 1` becomes `size = Meter()` in one file: the reads of `make().size` in a file
    that names nothing of it now run `Meter.__get__`; the incremental run relinks that file
    and ends equal to a clean index."""
    work = tmp_path / "work"
    meter = "class Meter:\n    def __get__(self, obj: object, owner: object = None) -> int:\n"
    meter += "        return 1\n"
    write_file(work, "app/meter.py", meter)
    write_file(work, "app/box.py", "class Box:\n    size = 1\n")
    _write_box_factory(work)
    write_file(
        work, "app/user.py", "from .factory import make\n\n\ndef read() -> object:\n"
        "    return make().size\n",
    )  # fmt: skip

    def index() -> IngestReport:
        return build_graph(work, neo4j, repo="inc", state_dir=tmp_path / "state")

    def targets(caller: str) -> set[str]:
        return _targets(neo4j, caller)

    index()
    assert targets("app.user.read") == {"inc:app.factory.make"}
    write_file(work, "app/box.py", "from .meter import Meter\n\n\nclass Box:\n    size = Meter()\n")
    report = index()
    assert report.mode == "incremental"
    assert targets("app.user.read") == {"inc:app.factory.make", "inc:app.meter.Meter.__get__"}
    assert_same_as_clean_index(neo4j, work, tmp_path, "inc")
