"""The Go accuracy script's matching, on hand-made oracle rows and graph pairs (offline, no Go)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.accuracy.go_accuracy import GraphNodes, graph_calls, graph_imports
from benchmarks.accuracy.go_match import (
    CONCRETE,
    DYNAMIC,
    GraphCall,
    OracleIndex,
    Spans,
    dispatch_sites,
    import_path_of,
    judge_all,
    missed,
    oracle_calls,
    oracle_imports,
    recall,
    score_sets,
)
from benchmarks.accuracy.go_match import judge_dispatch as dispatch_scores
from graphrag_code.ingest.offline import link_repository

# a.go:  10 func Run()      { helper(); s.Do(); f() }      (lines 10-20)
#        30 func (s *S) Do() {}                            (lines 30-32)
#        40 var handler = func() { helper() }             (lines 40-42)
#        50 func helper() {}
#        60 type Doer interface { Do() }  (method Do on line 61)
DECLS = [
    {"file": "a.go", "line": 10, "start_line": 10, "end_line": 20},
    {"file": "a.go", "line": 30, "start_line": 30, "end_line": 32},
    {"file": "a.go", "line": 40, "start_line": 40, "end_line": 42},
    {"file": "a.go", "line": 50, "start_line": 50, "end_line": 50},
]


def call(
    line: int,
    kind: str,
    callee: tuple[str, int] | None = None,
    external: str | None = None,
    caller: int | None = 10,
    name_line: int | None = None,
    col: int = 2,
) -> dict[str, Any]:
    return {
        "file": "a.go",
        "line": line,
        "col": col,
        "name_line": name_line or line,
        "lparen_line": name_line or line,
        "lparen_col": col + 5,
        "callee_text": "x",
        "caller": None if caller is None else {"file": "a.go", "line": caller},
        "kind": kind,
        "callee": None if callee is None else {"file": callee[0], "line": callee[1], "name": "n"},
        "external": None if external is None else _external(external),
    }


def _external(qualified: str) -> dict[str, str]:
    pkg, _, name = qualified.rpartition(".")
    if pkg == "testing.common":
        return {"qualified": qualified, "pkg": "testing", "recv": "common", "name": name}
    return {"qualified": qualified, "pkg": pkg, "name": name}


RAW = [
    call(11, "func", ("a.go", 50)),  # helper()
    call(12, "method", ("a.go", 30), name_line=13),  # s.\n Do()
    call(14, "value"),  # f(): a function value, no static callee
    call(15, "func", external="fmt.Println"),
    call(16, "builtin", external="append"),
    call(17, "interface", ("a.go", 61)),  # d.Do() through Doer
    call(41, "func", ("a.go", 50), caller=40),  # helper() inside the var's closure
    call(19, "method", external="testing.common.Fatal"),  # t.Fatal, promoted from common
    call(22, "method", ("a.go", 30), col=2),  # s.Do() < t.Do(): two calls, one graph pair
    call(22, "method", ("a.go", 30), col=12),
]
CONVERSIONS = [
    {"file": "a.go", "line": 18, "type": "a.Kind", "decl": {"file": "a.go", "line": 5}},
    {"file": "a.go", "line": 15, "type": "fmt.Stringer", "decl": None},  # beside a real call
]


def pair(
    line: int,
    callee: tuple[str, int] | None = None,
    external: str | None = None,
    caller: int = 10,
    tier: str = "exact",
) -> GraphCall:
    return GraphCall("a.go", line, ("a.go", caller), tier, callee, external)


@pytest.fixture
def index() -> OracleIndex:
    return OracleIndex(oracle_calls(RAW), CONVERSIONS, ["a.go"])


def test_spans_map_nested_callers_to_their_declaration_and_the_rest_to_package_level() -> None:
    spans = Spans(DECLS)
    assert spans.caller("a.go", 15) == ("a.go", 10)  # a closure inside Run starts on 15
    assert spans.caller("a.go", 41) == ("a.go", 40)
    assert spans.caller("a.go", 25) == ("a.go", 0)
    assert spans.caller("b.go", 11) == ("b.go", 0)


def test_right_pairs_match_by_location_on_any_line_of_the_call(index: OracleIndex) -> None:
    verdicts = judge_all(
        index,
        [
            pair(11, ("a.go", 50)),
            pair(13, ("a.go", 30)),  # the name's line of a chain split over two lines
            pair(15, external="fmt.Println"),
            pair(41, ("a.go", 50), caller=40),
            pair(19, external="testing.T.Fatal"),  # the receiver it was called on
        ],
    )
    assert len(verdicts.right) == 5
    assert not verdicts.wrong
    assert not verdicts.unjudged
    assert verdicts.precision == 1.0


def test_wrong_pairs_get_a_class(index: OracleIndex) -> None:
    verdicts = judge_all(
        index,
        [
            pair(11, ("a.go", 50), caller=30),  # right target, wrong caller
            pair(11, ("a.go", 30)),  # another in-module target
            pair(15, ("a.go", 50)),  # fmt.Println named as an in-module function
            pair(16, ("a.go", 50)),  # a builtin named as an in-module function
            pair(17, ("a.go", 30)),  # an interface call given one concrete body
            pair(18, ("a.go", 50)),  # a conversion taken for a call
            pair(21, ("a.go", 50)),  # no call there at all
            pair(11, ("a_windows.go", 3)),  # helper() declared for another build
            pair(15, external="fmt.Printf"),
            pair(15, external="fmt.Stringer"),  # the conversion on a line with a call
            pair(18, ("a.go", 5)),  # the conversion's type, in the module
        ],
    )
    classes = [cls for _, cls in verdicts.wrong]
    assert classes == [
        "wrong caller",
        "other in-module target",
        "external call named in-module",
        "builtin named in-module",
        "interface call named concrete",
        "conversion",
        "no call",
        "target in a file outside the build",
        "other external",
        "conversion",
        "conversion",
    ]
    assert verdicts.precision == 0.0
    assert not verdicts.found


def test_a_line_with_a_function_value_call_is_unjudged_never_right(index: OracleIndex) -> None:
    verdicts = judge_all(index, [pair(14, ("a.go", 50)), pair(11, ("a.go", 50))])
    assert len(verdicts.unjudged) == 1
    assert verdicts.unjudged[0].line == 14
    assert verdicts.precision == 1.0  # the unjudged pair counts neither way
    assert verdicts.as_dict()["unjudged"] == 1


def test_recall_counts_concrete_in_module_callees_and_lists_the_misses(
    index: OracleIndex,
) -> None:
    verdicts = judge_all(
        index, [pair(11, ("a.go", 50)), pair(17, ("a.go", 61)), pair(22, ("a.go", 30))]
    )
    wanted = [c for c in index.calls if c.kind in CONCRETE and c.callee is not None]
    assert recall(verdicts.found, wanted) == {"recall": 0.6, "found": 3, "oracle": 5}
    with_interface = [c for c in index.calls if c.kind in CONCRETE | DYNAMIC and c.callee]
    assert recall(verdicts.found, with_interface)["recall"] == 0.6667
    assert sorted(c.line for c in missed(index, verdicts.found, CONCRETE)) == [12, 41]


def test_imports_compare_file_and_import_path() -> None:
    records = [
        {"file": "a.go", "path": "fmt"},
        {"file": "a.go", "path": "example.com/m/sub"},
        {"file": "gen.go", "path": "os"},  # not an analysed file
    ]
    wanted = oracle_imports(records, {"a.go"})
    ours = {("a.go", import_path_of("sub", "example.com/m")), ("a.go", "example.com/m")}
    assert score_sets(ours, wanted) == {
        "precision": 0.5,
        "recall": 0.5,
        "right": 1,
        "ours": 2,
        "oracle": 2,
    }
    assert import_path_of("", "example.com/m") == "example.com/m"


def test_dispatch_precision_and_recall_per_call_graph() -> None:
    calls = oracle_calls(RAW)
    sites = [
        {
            "file": "a.go",
            "line": 17,
            "col": 7,  # the "(" of RAW's line-17 call
            "targets": {
                "cha": [{"file": "a.go", "line": 30}, {"file": "b.go", "line": 5}],
                "vta": [{"file": "a.go", "line": 30}],
            },
        }
    ]
    matched = dispatch_sites(sites, calls, RAW)
    assert matched[0].caller == ("a.go", 10)
    ours = [
        pair(17, ("a.go", 30), tier="dispatch"),
        pair(17, ("b.go", 5), tier="dispatch"),
        pair(17, ("c.go", 9), tier="dispatch"),
        pair(11, ("a.go", 50), tier="dispatch"),  # not an interface call
    ]
    scores = dispatch_scores(matched, ours)
    assert scores["cha"] == {
        "precision": 0.6667,
        "right": 2,
        "wrong": 1,
        "recall": 1.0,
        "oracle_pairs": 2,
    }
    assert scores["vta"]["precision"] == 0.3333
    assert scores["vta"]["recall"] == 1.0
    assert scores["graph_pairs_off_interface_sites"] == 1


def test_graph_edges_become_located_pairs_with_nested_callers_mapped(tmp_path: Path) -> None:
    """The edge -> pair conversion is language-blind: checked on a Python pair of files."""
    (tmp_path / "a.py").write_text("def helper():\n    pass\n")
    (tmp_path / "b.py").write_text(
        "from a import helper\n\n\ndef run():\n    def inner():\n        helper()\n\n    helper()\n"
    )
    linked = link_repository(tmp_path, repo="t")
    files = {"a.py", "b.py"}
    nodes = GraphNodes(linked, files)
    spans = Spans([{"file": "b.py", "line": 4, "start_line": 4, "end_line": 8}])
    pairs = {
        (p.file, p.line, p.caller, p.callee, p.tier)
        for p in graph_calls(linked, nodes, spans, files)
    }
    # the call in `inner` (a nested def) belongs to `run`, as in the Go oracle's closures
    assert ("b.py", 6, ("b.py", 4), ("a.py", 1), "exact") in pairs
    assert ("b.py", 8, ("b.py", 4), ("a.py", 1), "exact") in pairs
    assert graph_imports(linked, nodes, files, "example.com/m") == {("b.py", "example.com/m")}
