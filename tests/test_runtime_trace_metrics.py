"""The pure metrics of `benchmarks/accuracy/runtime_trace.py` on hand-computed examples (no
Neo4j)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from benchmarks.accuracy.runtime_trace import (
    PathOutcome,
    Ratio,
    certain_ceiling,
    chain_figures,
    classify_misses,
    classify_wrong,
    executed_lines,
    precision,
    recall,
    split_tiers,
)
from graphrag_code.graph import PathStep
from graphrag_code.location import Location

RUNTIME = {("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")}
GRAPH = {
    ("a", "b"): {"exact"},
    ("b", "c"): {"name"},
    ("c", "d"): {"inferred", "name"},
    ("b", "x"): {"exact"},  # never happened, caller b ran
    ("y", "a"): {"name"},  # never happened, caller y did not run
    ("c", "x"): {"dispatch"},  # a tier the library may add later
}


def test_tiers_come_from_the_library_and_unknown_ones_are_possible() -> None:
    certain, possible = split_tiers(["exact", "dispatch", "a_later_tier"])
    assert certain == ["exact", "inferred"]
    # every possible tier of the library, in its order, then the ones it does not know
    assert possible == ["name", "dispatch", "many", "signature", "partial", "a_later_tier"]


def test_recall_counts_runtime_edges_joined_by_a_wanted_tier() -> None:
    assert recall(RUNTIME, GRAPH, ["exact", "inferred"]) == Ratio(2, 4)
    assert recall(RUNTIME, GRAPH, ["exact", "inferred", "name"]) == Ratio(3, 4)
    assert recall(RUNTIME, GRAPH, ["name"]) == Ratio(2, 4)
    assert Ratio(3, 4).value == 0.75
    assert Ratio(0, 0).value is None


def test_certain_ceiling_leaves_out_edges_only_a_possible_by_rule_tier_joins() -> None:
    runtime = {("a", "b"), ("b", "c"), ("c", "d"), ("a", "d"), ("d", "e")}
    graph = {
        ("a", "b"): {"exact", "dispatch"},  # certain as well: not bound by the rule
        ("b", "c"): {"dispatch"},  # only a dispatch edge: certain recall cannot count it
        ("c", "d"): {"name"},  # name-matched: a better resolution could make it certain
        ("d", "e"): {"many", "partial"},
    }
    assert certain_ceiling(runtime, graph, ["exact", "inferred"]) == Ratio(3, 5)
    assert certain_ceiling(runtime, graph, ["exact", "inferred"], by_rule=["many"]) == Ratio(4, 5)
    assert certain_ceiling(set(), graph, ["exact"]) == Ratio(0, 0)


def test_precision_judges_only_edges_whose_caller_ran() -> None:
    ran = {"a", "b", "c"}
    assert precision(GRAPH, RUNTIME, ["exact", "inferred"], ran) == Ratio(2, 3)
    assert precision(GRAPH, RUNTIME, ["name"], ran) == Ratio(2, 2)  # (y, a) is not judged
    assert precision(GRAPH, RUNTIME, ["name"], ran | {"y"}) == Ratio(2, 3)
    assert precision(GRAPH, RUNTIME, ["dispatch"], ran) == Ratio(0, 1)


def test_misses_are_classified_by_the_first_reason_that_fits() -> None:
    runtime = {
        ("a", "b"): ("call", True),  # joined: not a miss
        ("c", "Sub.m"): ("call", True),  # the graph calls Base.m, which Sub.m overrides
        ("c", "p"): ("property", False),
        ("c", "Sub.__enter__"): ("dunder", False),
        ("c", "wrapped"): ("call", False),
        ("c", "lost"): ("call", True),
        ("d", "Sub.m"): ("call", True),  # d does not call Base.m: not dispatch
    }
    graph = {("a", "b"): {"exact"}, ("c", "Base.m"): {"inferred"}}
    overrides = {"Sub.m": ["Base.m"], "Sub.__enter__": ["Base.__enter__"]}
    assert classify_misses(runtime, graph, overrides) == {
        "dispatch": 1,
        "property": 1,
        "dunder": 1,
        "not explicit": 1,
        "other": 2,
    }


def test_edges_not_seen_at_runtime_are_classified() -> None:
    runtime = {("c", "Sub.m"), ("c", "f")}
    graph = {
        ("c", "f"): {"exact"},  # seen: not counted
        ("c", "Base.m"): {"inferred"},  # c ran Sub.m, an override, instead
        ("c", "abstract"): {"exact"},  # never ran at all
        ("c", "g"): {"exact"},  # g ran, but not from c
        ("z", "g"): {"exact"},  # z never ran: not judged
    }
    overrides = {"Sub.m": ["Base.m"]}
    ran = {"c", "f", "g", "Sub.m"}
    assert classify_wrong(graph, runtime, overrides, ran) == {
        "dispatched": 1,
        "callee never ran": 1,
        "other": 1,
    }


def _step(node: str, edge: str | None, resolution: str | None) -> PathStep:
    return PathStep(node, node, "Function", Location("m.py", 1, 2), edge, resolution)


def test_chain_figures_share_and_possible_steps() -> None:
    certain_path = (
        _step("a", None, None),
        _step("b", "CALLS", "exact"),
        _step("c", "CALLS", "inferred"),
    )
    mixed_path = (
        _step("a", None, None),
        _step("K", "CALLS", "name"),
        _step("m", "DEFINES", None),
    )
    figures = chain_figures(
        [
            PathOutcome(runtime_steps=3, tests=5, steps=certain_path, covered=True),
            PathOutcome(runtime_steps=4, tests=1, steps=mixed_path),
            PathOutcome(runtime_steps=2, tests=4),  # no path
            PathOutcome(runtime_steps=5, tests=2, ambiguous=True),  # `path` refused a name
        ]
    )
    assert figures.chains == 4
    assert figures.found == Ratio(2, 4)
    assert figures.found_by_tests == Ratio(6, 12)
    assert figures.found_calls_only == Ratio(1, 4)  # the mixed path goes through DEFINES
    assert figures.covered == Ratio(1, 4)
    assert figures.ambiguous_names == 1
    assert figures.mean_runtime_steps == 3.5
    assert figures.mean_path_steps == 2.0
    assert figures.mean_possible_steps == 0.5  # `name` is possible, DEFINES is not a call
    assert figures.mean_possible_steps_by_tier == 0.5
    assert figures.mean_non_call_steps == 0.5
    assert figures.certain_paths == 1


def test_chain_figures_without_chains() -> None:
    figures = chain_figures([])
    assert figures.found == Ratio(0, 0)
    assert figures.mean_possible_steps is None


def test_executed_lines_reads_coverage_numbits(tmp_path: Path) -> None:
    db = tmp_path / ".coverage"
    with closing(sqlite3.connect(db)) as con:
        con.executescript(
            "CREATE TABLE file (id integer primary key, path text);"
            "CREATE TABLE line_bits (file_id integer, context_id integer, numbits blob);"
        )
        con.execute("INSERT INTO file VALUES (1, '/x/pkg-1.0/src/pkg/m.py')")
        con.execute("INSERT INTO line_bits VALUES (1, 1, ?)", (bytes([0b1010, 0b10]),))
        con.execute("INSERT INTO line_bits VALUES (1, 2, ?)", (bytes([0b10000000]),))
        con.commit()
    assert executed_lines(db, "pkg-1.0") == {"src/pkg/m.py": {1, 3, 7, 9}}


def test_a_redefinition_maps_onto_the_name_the_oracle_gives_it() -> None:
    """The tracer names a function by its qualified name: a property's getter and setter are
    one function to it. The graph's setter node (`#2`) folds onto the getter's, which the
    oracle's name maps onto; a name defined once is left alone."""
    from benchmarks.accuracy.runtime_trace import map_functions
    from benchmarks.common.runtime_oracle import Spans
    from graphrag_code.graph.records import FileNode, SymbolRef

    def node(node_id: str, name: str, line: int) -> FileNode:
        ref = SymbolRef(node_id, name, "Method", "r", Location("m.py", line, line + 2))
        return FileNode(ref, name.rsplit(".", 1)[1], False, None, 0.0)

    nodes = [node("r:m.C.size", "m.C.size", 3), node("r:m.C.size#2", "m.C.size", 7),
             node("r:m.C.run", "m.C.run", 11)]  # fmt: skip
    spans = Spans(
        by_path={"m.py": nodes},
        starts={"m.py": [3, 7, 11]},
        by_name={"m.C.size": nodes[0], "m.C.run": nodes[2]},
    )
    mapped = map_functions(
        spans, {"m.C.size": {"file": "m.py", "line": 7}, "m.C.run": {"file": "m.py", "line": 11}}
    )
    assert mapped.ids == {"m.C.size": "r:m.C.size", "m.C.run": "r:m.C.run"}
    assert mapped.redefinitions == {"r:m.C.size#2": "r:m.C.size"}
