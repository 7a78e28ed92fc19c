"""The Java accuracy script's matching, on hand-made javac rows and graph pairs (offline, no
javac, no Java plug-in needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.accuracy.java_accuracy import GraphNodes, graph_calls, graph_imports
from benchmarks.accuracy.java_match import (
    CALL_KINDS,
    Decls,
    GraphCall,
    OracleIndex,
    dispatch_targets,
    in_sources,
    judge_all,
    judge_dispatch,
    missed,
    oracle_calls,
    oracle_imports,
    overload_choice,
    recall,
    score_imports,
)
from graphrag_code.ingest.offline import link_repository

# p/A.java:  3 class A {                                     (lines 3-40)
#            5   @Override                                   (start 5, name line 6)
#            6   public void run() { add(1); add("x"); new B(); ...   (lines 5-13)
#           12     new I() {                                 (anonymous class p.A$1, 12-13)
#           13       public void go() {} }; }                (its method, 13-13)
#           14   void add(int i) {}                          (14-14)
#           15   void add(String s) {}                       (15-15)
#           17   Runnable r = () -> helper();                (field, 17-17)
#           20   static void helper() {}                     (20-20)
#           22   static { helper(); }                        (initializer, 22-22)
# p/B.java:  2 class B implements I {  (2-9)  4 public void go() {}  (4-4); no constructor
# p/I.java:  1 interface I {  (1-3)  2 void go();  (2-2)
# p/C.java:  1 class C extends B {  (1-5)  3 public void go() {}  (3-3)
DECLS: list[dict[str, Any]] = [
    {"file": "p/A.java", "kind": "class", "name": "p.A", "line": 3, "start_line": 3,
     "end_line": 40, "qualified": "p.A"},
    {"file": "p/A.java", "kind": "method", "name": "run()", "line": 6, "start_line": 5,
     "end_line": 13, "class": "p.A", "class_line": 3},
    {"file": "p/A.java", "kind": "local_class", "name": "p.A$1", "line": 12, "start_line": 12,
     "end_line": 13},
    {"file": "p/A.java", "kind": "local_method", "name": "go()", "line": 13, "start_line": 13,
     "end_line": 13, "class": "p.A$1", "class_line": 12},
    {"file": "p/A.java", "kind": "method", "name": "add(int)", "line": 14, "start_line": 14,
     "end_line": 14, "class": "p.A", "class_line": 3},
    {"file": "p/A.java", "kind": "method", "name": "add(java.lang.String)", "line": 15,
     "start_line": 15, "end_line": 15, "class": "p.A", "class_line": 3},
    {"file": "p/A.java", "kind": "field", "name": "r", "line": 17, "start_line": 17,
     "end_line": 17, "class": "p.A", "class_line": 3},
    {"file": "p/A.java", "kind": "method", "name": "helper()", "line": 20, "start_line": 20,
     "end_line": 20, "class": "p.A", "class_line": 3},
    {"file": "p/A.java", "kind": "static_initializer", "name": "", "line": 22,
     "start_line": 22, "end_line": 22, "class": "p.A", "class_line": 3},
    {"file": "p/B.java", "kind": "class", "name": "p.B", "line": 2, "start_line": 2,
     "end_line": 9, "qualified": "p.B"},
    {"file": "p/B.java", "kind": "method", "name": "go()", "line": 4, "start_line": 4,
     "end_line": 4, "class": "p.B", "class_line": 2},
    {"file": "p/I.java", "kind": "interface", "name": "p.I", "line": 1, "start_line": 1,
     "end_line": 3, "qualified": "p.I"},
    {"file": "p/I.java", "kind": "method", "name": "go()", "line": 2, "start_line": 2,
     "end_line": 2, "class": "p.I", "class_line": 1},
    {"file": "p/C.java", "kind": "class", "name": "p.C", "line": 1, "start_line": 1,
     "end_line": 5, "qualified": "p.C"},
    {"file": "p/C.java", "kind": "method", "name": "go()", "line": 3, "start_line": 3,
     "end_line": 3, "class": "p.C", "class_line": 1},
]  # fmt: skip


def call(
    id: int,
    line: int,
    kind: str,
    callee: tuple[str, int] | None = None,
    *,
    caller: int = 6,
    file: str = "p/A.java",
    overloads: int = 1,
    external: tuple[str, str] | None = None,
    member_of: tuple[str, ...] = (),
    **extra: Any,
) -> dict[str, Any]:
    if callee is not None:
        target: dict[str, Any] = {
            "class": "p.X",
            "qualified_class": "p.X",
            "name": "m",
            "file": callee[0],
            "line": callee[1],
            "overloads": overloads,
        }
    else:
        cls, name = external or ("java.lang.Object", "<init>")
        target = {"class": cls, "qualified_class": cls, "name": name, "params": ""}
    return {
        "id": id,
        "file": file,
        "line": line,
        "kind": kind,
        "caller": {"file": file, "line": caller},
        "callee": target,
        "member_of": list(member_of),
        **extra,
    }


CALLS = [
    call(0, 7, "method", ("p/A.java", 14), overloads=2),  # add(1)
    call(1, 8, "method", ("p/A.java", 15), overloads=2),  # add("x")
    call(2, 9, "new", ("p/B.java", 2), implicit=True),  # new B(): the default constructor
    call(3, 17, "static", ("p/A.java", 20), caller=17),  # helper() in the field's lambda
    call(4, 22, "static", ("p/A.java", 20), caller=22),  # helper() in the initializer
    call(5, 10, "method", ("p/I.java", 2), virtual="interface"),  # i.go()
    call(6, 11, "method", external=("java.lang.Throwable", "getMessage"),
         member_of=("java.lang.Exception", "java.lang.Throwable"), virtual="class"),
    call(7, 12, "new", interface="p.I", anonymous=True),  # new I() {...}
    call(8, 30, "reference", ("p/A.java", 20)),
]  # fmt: skip

DISPATCH = [
    {"call": 5, "targets": [{"file": "p/B.java", "line": 4}, {"file": "p/C.java", "line": 3}]}
]


def index() -> OracleIndex:
    decls = Decls(DECLS)
    return OracleIndex(oracle_calls(CALLS, decls), decls, dispatch_targets(DISPATCH, decls))


def pair(
    line: int,
    callee: tuple[str, int] | None = None,
    caller: tuple[str, int] = ("p/A.java", 6),
    tier: str = "exact",
    external: str | None = None,
) -> GraphCall:
    return GraphCall("p/A.java", line, caller, tier, callee, external)


def test_decls_map_any_line_to_the_innermost_declaration_and_the_member_around_it() -> None:
    decls = Decls(DECLS)
    assert decls.callee(("p/A.java", 5)) == ("p/A.java", 6)  # the annotation's line
    assert decls.callee(("p/A.java", 30)) == ("p/A.java", 3)  # inside the class only
    assert decls.callee(("p/A.java", 50)) is None
    assert decls.caller(("p/A.java", 9)) == ("p/A.java", 6)  # a lambda in run()
    assert decls.callee(("p/A.java", 13)) == ("p/A.java", 13)  # an anonymous class's method
    assert decls.caller(("p/A.java", 13)) == ("p/A.java", 6)  # ... calls from it are run()'s
    assert decls.caller(("p/A.java", 30)) == ("p/A.java", 3)  # class level
    assert decls.caller(("p/A.java", 0)) == ("p/A.java", 0)  # the file
    assert decls.classes == {"p.A": "p/A.java", "p.B": "p/B.java", "p.I": "p/I.java",
                             "p.C": "p/C.java"}  # fmt: skip


def test_right_wrong_and_unjudged_pairs_with_their_classes() -> None:
    idx = index()
    pairs = [
        pair(7, ("p/A.java", 14)),  # right
        pair(8, ("p/A.java", 14)),  # the other overload
        pair(9, ("p/B.java", 2)),  # right: a default constructor is its class
        pair(7, ("p/A.java", 14), caller=("p/A.java", 20)),  # right target, wrong caller
        pair(10, ("p/B.java", 4)),  # the interface call named an implementation
        pair(12, ("p/I.java", 1)),  # new I() {...} named I
        pair(40, ("p/A.java", 20)),  # nothing on the line
        pair(9, ("?p.Gone", 0)),  # a node javac does not list
        pair(11, ("p/A.java", 20)),  # javac's callee is external
    ]
    verdicts = judge_all(idx, pairs)
    assert [p.line for p in verdicts.right] == [7, 9]
    assert [cls for _, cls in verdicts.wrong] == [
        "other overload",
        "wrong caller",
        "virtual call named an override",
        "new I() {...} of an interface named I",
        "no call on the line",
        "external call named in-sources",
    ]
    assert [p.line for p in verdicts.unjudged] == [9]
    assert verdicts.as_dict()["precision"] == round(2 / 8, 4)


def test_a_field_or_initializer_call_may_belong_to_the_class() -> None:
    idx = index()
    pairs = [
        pair(17, ("p/A.java", 20), caller=("p/A.java", 3)),
        pair(22, ("p/A.java", 20), caller=("p/A.java", 22)),
        pair(22, ("p/A.java", 20), caller=("p/A.java", 6)),
    ]
    verdicts = judge_all(idx, pairs)
    assert [p.line for p in verdicts.right] == [17, 22]
    assert [cls for _, cls in verdicts.wrong] == ["wrong caller"]


def test_external_names_by_any_type_the_method_is_a_member_of() -> None:
    idx = index()
    verdicts = judge_all(
        idx,
        [
            pair(11, external="java.lang.Exception.getMessage"),
            pair(11, external="java.lang.Throwable.getMessage()"),  # a parameter list is dropped
            pair(11, external="java.lang.String.getMessage"),
            pair(7, external="java.util.List.add"),  # javac: in the sources
        ],
    )
    assert len(verdicts.right) == 2
    assert [cls for _, cls in verdicts.wrong] == [
        "other external",
        "in-sources call named external",
    ]


def test_recall_counts_calls_into_the_sources_with_interface_calls_apart() -> None:
    idx = index()
    verdicts = judge_all(idx, [pair(7, ("p/A.java", 14)), pair(9, ("p/B.java", 2))])
    concrete = in_sources(idx.calls, CALL_KINDS, dynamic=False)
    assert sorted(c.id for c in concrete) == [0, 1, 2, 3, 4]  # no interface call, no reference
    assert recall(verdicts.found, concrete) == {"recall": 0.4, "found": 2, "oracle": 5}
    assert len(in_sources(idx.calls, CALL_KINDS, dynamic=True)) == 6
    assert sorted(c.id for c in missed(idx.calls, verdicts.found)) == [1, 3, 4]


def test_overload_choice_counts_certain_answers_possible_ones_and_silence() -> None:
    idx = index()
    pairs = [
        pair(7, ("p/A.java", 14)),  # add(1): right
        pair(8, ("p/A.java", 14), tier="many"),  # add("x"): only possible edges, to both
        pair(8, ("p/A.java", 15), tier="many"),
    ]
    assert overload_choice(idx, pairs, ["exact", "inferred"]) == {
        "sites": 2,
        "accuracy": 1.0,
        "right": 1,
        "wrong": 0,
        "possible_only": 1,
        "possible_only_holding_javac_choice": 1,
        "no_edge": 0,
    }
    wrong = overload_choice(idx, [pair(8, ("p/A.java", 14))], ["exact"])
    assert (wrong["right"], wrong["wrong"], wrong["no_edge"]) == (0, 1, 1)


def test_dispatch_edges_against_cha_targets() -> None:
    idx = index()
    pairs = [
        pair(10, ("p/B.java", 4), tier="dispatch"),
        pair(10, ("p/A.java", 14), tier="dispatch"),  # no override of I.go
        pair(7, ("p/A.java", 15), tier="dispatch"),  # not a virtual call's line
    ]
    assert judge_dispatch(idx, pairs) == {
        "precision": 0.5,
        "right": 1,
        "wrong": 1,
        "recall": 0.5,
        "oracle_pairs": 2,
        "pairs_off_virtual_sites": 1,
    }


def test_imports_by_target_file_folder_or_external_name() -> None:
    decls = Decls(DECLS)
    records = [
        {"file": "p/A.java", "line": 1, "name": "p.B", "static": False, "on_demand": False},
        {"file": "p/A.java", "line": 2, "name": "p", "static": False, "on_demand": True},
        {"file": "p/B.java", "line": 1, "name": "java.util.List", "static": False,
         "on_demand": False},
        {"file": "p/C.java", "line": 1, "name": "p.A.helper", "static": True, "on_demand": False},
        {"file": "p/C.java", "line": 2, "name": "java.util.Objects.requireNonNull",
         "static": True, "on_demand": False},
        {"file": "p/A.java", "line": 9, "name": "p.A.helper", "static": True, "on_demand": False},
        {"file": "q/Gone.java", "line": 1, "name": "p.B", "static": False, "on_demand": False},
    ]  # fmt: skip
    wanted = oracle_imports(records, decls, {"p/A.java", "p/B.java", "p/C.java"})
    assert len(wanted) == 5  # the file's own member and an uncompiled file are left out
    graph = [
        (("p/A.java", 1), ("file", "p/B.java")),
        (("p/A.java", 2), ("file", "p/I.java")),  # a file of the package stands for it
        (("p/B.java", 1), ("ext", "java.util.List")),
        (("p/C.java", 1), ("ext", "p.A")),  # in the sources, named external
        (("p/C.java", 2), ("ext", "java.util.Objects")),
        (("p/C.java", 7), ("ext", "java.util.Map")),
    ]
    assert score_imports(wanted, graph) == {
        "precision": round(4 / 6, 4),
        "recall": 0.8,
        "right": 4,
        "ours": 6,
        "oracle": 5,
        "wrong_by_class": {"in-sources import named external": 1, "no import on the line": 1},
    }


def test_graph_edges_become_located_pairs(tmp_path: Path) -> None:
    """A linked tree's CALLS and IMPORTS edges as the matcher sees them: callers and callees
    mapped to the declarations javac would list (a Python tree stands in: the mapping does
    not depend on the language)."""
    (tmp_path / "m.py").write_text(
        "import os\n\n\ndef g():\n    pass\n\n\ndef f():\n    g()\n    return os.getcwd()\n"
    )
    (tmp_path / "n.py").write_text("from m import f\n\nX = f()\n")
    linked = link_repository(tmp_path, repo="t")
    decls = Decls(
        [
            {"file": "m.py", "kind": "method", "name": "g()", "line": 4, "end_line": 5},
            {"file": "m.py", "kind": "method", "name": "f()", "line": 8, "end_line": 10},
        ]
    )
    nodes = GraphNodes(linked)
    files = {"m.py", "n.py"}
    assert sorted(graph_calls(linked, nodes, decls, files), key=lambda p: (p.file, p.line)) == [
        GraphCall("m.py", 9, ("m.py", 8), "exact", ("m.py", 4), None, "m.g"),
        GraphCall("m.py", 10, ("m.py", 8), "exact", None, "os.getcwd", "os.getcwd"),
        GraphCall("n.py", 3, ("n.py", 0), "exact", ("m.py", 8), None, "m.f"),
    ]
    assert sorted(graph_imports(linked, nodes, files)) == [
        (("m.py", 1), ("ext", "os")),
        (("n.py", 1), ("file", "m.py")),
    ]
    assert graph_calls(linked, nodes, decls, {"n.py"})[0].callee == ("m.py", 8)
