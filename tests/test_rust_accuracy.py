"""The Rust oracle's SCIP reader and the accuracy script's matching, on hand-made records and a
hand-encoded SCIP index (offline: no cargo, no rust-analyzer, no Rust plug-in needed)."""

from __future__ import annotations

from typing import Any

from benchmarks.accuracy.rust_match import (
    OUTSIDE,
    Decls,
    GraphCall,
    OracleIndex,
    UseLines,
    crate_family,
    dispatch_sites,
    external_of,
    in_crate,
    judge_all,
    judge_dispatch,
    oracle_calls,
    oracle_imports,
    recall,
    score_sets,
)
from benchmarks.oracles.rust_scip import Source, derive, parse_symbol, read_index

CRATE = "rust-analyzer cargo demo 0.1.0 "
CORE = "rust-analyzer cargo core https://github.com/rust-lang/rust/library/core "

# src/lib.rs:  3 /// doc            5 fn run() {            (span 4-12, name line 5)
#              7   helper();        8   x.len()             9     .step();   (a split chain)
#             10   (self.f)();      (a field of fn type)    13 fn helper() {}  (13-13)
#             15 impl Step for S {  16 fn step(&self) {}   (16-16)
#             20 trait Step { fn step(&self); }  (20-22, method name line 21)
DECLS: list[dict[str, Any]] = [
    {"file": "src/lib.rs", "line": 5, "start_line": 4, "end_line": 12, "symbol": CRATE + "run()."},
    {"file": "src/lib.rs", "line": 13, "start_line": 13, "end_line": 13, "symbol": "helper()."},
    {"file": "src/lib.rs", "line": 15, "start_line": 15, "end_line": 18, "symbol": "impl#[S]"},
    {"file": "src/lib.rs", "line": 16, "start_line": 16, "end_line": 16, "symbol": "step()."},
    {"file": "src/lib.rs", "line": 21, "start_line": 21, "end_line": 21, "symbol": "Step#step()."},
]
RUN = ("src/lib.rs", 5)


def _call(line: int, callee: tuple[str, int] | None, kind: str = "fn", **extra: Any) -> Any:
    return {
        "file": "src/lib.rs",
        "line": line,
        "col": 4,
        "name": "f",
        "caller": {"file": "src/lib.rs", "line": 5},
        "callee": None if callee is None else {"file": callee[0], "line": callee[1]},
        "external": extra.get("external"),
        "kind": kind,
        "chained": extra.get("chained", False),
    }


CALLS = [
    _call(7, ("src/lib.rs", 13)),
    _call(9, ("src/lib.rs", 16), "impl", chained=True),
    _call(8, None, "impl", external={"crate": "alloc", "name": "len"}),
    _call(11, ("src/lib.rs", 21), "trait"),
]


def _index() -> OracleIndex:
    return OracleIndex(
        oracle_calls(CALLS),
        value_calls=[{"file": "src/lib.rs", "line": 10, "name": "f"}],
        macro_rules=[{"file": "src/lib.rs", "start_line": 30, "end_line": 34}],
    )


def _pair(line: int, callee: tuple[str, int] | None = None, **extra: Any) -> GraphCall:
    return GraphCall(
        "src/lib.rs",
        line,
        extra.get("caller", RUN),
        extra.get("tier", "exact"),
        callee,
        extra.get("external"),
    )


def test_decls_map_a_line_to_the_innermost_fn_and_a_doc_line_to_its_item() -> None:
    decls = Decls(DECLS)
    assert decls.caller(("src/lib.rs", 7)) == RUN
    assert decls.caller(("src/lib.rs", 14)) == ("src/lib.rs", 0)
    assert decls.at(("src/lib.rs", 16)) == ("src/lib.rs", 16)  # the method, not its impl
    assert decls.at(("src/lib.rs", 3)) == RUN  # a doc comment above the span


def test_pairs_are_judged_by_line_caller_and_target() -> None:
    index = _index()
    helper, step = ("src/lib.rs", 13), ("src/lib.rs", 16)
    verdicts = judge_all(
        index,
        [
            _pair(7, helper),  # right
            _pair(7, helper, caller=("src/lib.rs", 0)),  # wrong caller
            _pair(8, step),  # the chain's name is a line below: right
            _pair(7, step),  # another in-crate target
            _pair(10, helper),  # a field of fn type: unjudged
            _pair(31, helper),  # inside macro_rules!: unjudged
            _pair(11, step),  # a trait's method, the graph named one impl
            _pair(12, helper),  # no call there
        ],
    )
    assert [p.line for p in verdicts.right] == [7, 8]
    assert [cls for _, cls in verdicts.wrong] == [
        "wrong caller",
        "other in-crate target",
        "trait call named an impl",
        "no call",
    ]
    assert [p.line for p in verdicts.unjudged] == [10, 31]
    assert recall(verdicts.found, in_crate(index.calls)) == {
        "recall": 1.0,
        "found": 2,
        "oracle": 2,
    }


def test_external_calls_match_by_crate_family_and_name() -> None:
    assert external_of("std::vec::Vec::len") == ("std", "len")
    assert crate_family("allocator-api2") == crate_family("allocator_api2") == "allocator_api2"
    index = _index()
    verdicts = judge_all(
        index,
        [
            _pair(8, external=external_of("std::vec::Vec::len")),
            _pair(8, external=external_of("serde::len")),
            _pair(7, external=external_of("std::helper")),
        ],
    )
    assert len(verdicts.right) == 1
    assert [cls for _, cls in verdicts.wrong] == ["other external", "in-crate call named external"]


def test_imports_compare_per_use_item_and_declaring_file() -> None:
    records = [
        {"file": "src/a.rs", "line": 2, "use_line": 1, "target": {"file": "src/b.rs"}},
        {
            "file": "src/a.rs",
            "line": 3,
            "use_line": 1,
            "target": None,
            "external": {"crate": "core"},
        },
    ]
    lines = UseLines(records)
    assert lines.first(("src/a.rs", 3)) == 1
    wanted = oracle_imports(records, lines)
    ours = {("src/a.rs", 1, ("file", "src/b.rs", 0)), ("src/a.rs", 1, ("ext", "serde", 0))}
    assert score_sets(ours, wanted) == {
        "precision": 0.5,
        "recall": 0.5,
        "right": 1,
        "ours": 2,
        "oracle": 2,
    }


def test_dispatch_precision_and_recall() -> None:
    sites = dispatch_sites(
        [
            {
                "file": "src/lib.rs",
                "line": 11,
                "targets": [{"file": "src/lib.rs", "line": 16}, {"file": "src/x.rs", "line": 4}],
            }
        ]
    )
    result = judge_dispatch(
        sites,
        [_pair(11, ("src/lib.rs", 16)), _pair(11, ("src/lib.rs", 13)), _pair(7, ("src/x.rs", 4))],
    )
    assert (result["right"], result["wrong"], result["recall"]) == (1, 1, 0.5)


def test_dispatch_to_bodies_outside_the_measured_files_is_unjudged() -> None:
    record = {
        "file": "src/lib.rs",
        "line": 11,
        "targets": [{"file": "src/lib.rs", "line": 16}, {"file": "benches/b.rs", "line": 4}],
    }
    sites = dispatch_sites([record], {"src/lib.rs"})
    result = judge_dispatch(
        sites, [_pair(11, ("src/lib.rs", 16)), _pair(11, (f"{OUTSIDE}benches/b.rs", 3))]
    )
    # a bench's impl has no declaration the graph's edge maps to: neither side counts it
    assert (result["right"], result["wrong"], result["recall"]) == (1, 0, 1.0)


# -- the SCIP reader, on an index encoded by hand ---------------------------------------------


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes | int) -> bytes:
    if isinstance(payload, int):
        return _varint(number << 3) + _varint(payload)
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _occ(
    symbol: str, rng: list[int], definition: bool = False, span: list[int] | None = None
) -> bytes:
    body = _field(1, b"".join(_varint(v) for v in rng)) + _field(2, symbol.encode())
    if definition:
        body += _field(3, 1)
    if span:
        body += _field(7, b"".join(_varint(v) for v in span))
    return _field(2, body)


SOURCE = "use core::mem::swap;\nfn a() {\n    b();\n    let g = b;\n}\nfn b() {}\n"


def test_the_scip_reader_derives_calls_imports_and_callers() -> None:
    doc = (
        _field(1, b"src/lib.rs")
        + _occ(CORE + "mem/swap().", [0, 15, 19])
        + _occ(CRATE + "a().", [1, 3, 4], True, [1, 0, 4, 1])
        + _occ(CRATE + "b().", [2, 4, 5])
        + _occ(CRATE + "b().", [3, 12, 13])  # a mention, not a call
        + _occ(CRATE + "b().", [5, 3, 4], True, [5, 0, 9])
    )
    documents = read_index(_field(2, doc))
    out = derive(documents, lambda path: SOURCE if path == "src/lib.rs" else None, "demo")
    assert [(c["line"], c["caller"]["line"], c["callee"]["line"]) for c in out["calls"]] == [
        (3, 2, 6)
    ]
    assert [(i["line"], i["in_crate"], i["external"]["path"]) for i in out["imports"]] == [
        (1, False, "core::mem::swap")
    ]
    assert out["files"] == ["src/lib.rs"]


def test_symbols_name_the_trait_of_an_impl_method() -> None:
    parsed = parse_symbol(CRATE + "parse/impl#[Version][FromStr]from_str().")
    assert parsed is not None
    assert (parsed.crate, parsed.impl_trait, parsed.is_function) == ("demo", "FromStr", True)
    assert parse_symbol("local 3") is None


RAND_CORE = "rust-analyzer cargo rand_core 0.6.4 "
SOURCE_2 = "extern crate alloc;\nuse rand::Rng;\nuse crate::a;\n"


def test_imports_name_the_crate_written_and_extern_crate_counts() -> None:
    doc = (
        _field(1, b"src/lib.rs")
        + _occ(CRATE + "alloc/", [0, 13, 18], True, [0, 0, 19])  # rust-analyzer's alias item
        + _occ("rust-analyzer cargo rand 0.8.5 crate/", [1, 4, 8])
        + _occ(RAND_CORE + "Rng#", [1, 10, 13])  # defined in rand_core, re-exported
        + _occ(CRATE + "crate/", [2, 4, 9])
        + _occ(CRATE + "a().", [2, 11, 12])
        + _occ(CRATE + "a().", [3, 3, 4], True, [3, 0, 3, 10])
    )
    out = derive(read_index(_field(2, doc)), lambda _: SOURCE_2 + "fn a() {}\n", "demo")
    assert [
        (i["line"], i["in_crate"], (i["external"] or {}).get("crate")) for i in out["imports"]
    ] == [(1, False, "alloc"), (2, False, "rand"), (3, True, None)]


SOURCE_3 = (
    "fn a() {\n    fn inner() {}\n    inner();\n}\nfn b() {\n    fn inner() {}\n    inner();\n}\n"
)


def test_a_nested_fn_shared_symbol_resolves_to_the_one_in_the_calling_fn() -> None:
    inner = CRATE + "inner()."  # rust-analyzer gives both nested fns this one symbol
    doc = (
        _field(1, b"src/lib.rs")
        + _occ(CRATE + "a().", [0, 3, 4], True, [0, 0, 3, 1])
        + _occ(inner, [1, 7, 12], True, [1, 4, 17])
        + _occ(inner, [2, 4, 9])
        + _occ(CRATE + "b().", [4, 3, 4], True, [4, 0, 7, 1])
        + _occ(inner, [5, 7, 12], True, [5, 4, 17])
        + _occ(inner, [6, 4, 9])
    )
    out = derive(read_index(_field(2, doc)), lambda _: SOURCE_3, "demo")
    assert [(c["line"], c["caller"]["line"], c["callee"]["line"]) for c in out["calls"]] == [
        (3, 1, 2),
        (7, 5, 6),
    ]


def test_an_impl_of_a_generic_trait_names_the_trait_without_its_arguments() -> None:
    parsed = parse_symbol(CRATE + "error/impl#[`Error<I>`][`ParseError<I>`]from_error_kind().")
    assert parsed is not None
    assert parsed.impl_trait == "ParseError"


def test_a_string_line_that_starts_with_use_is_no_use_item() -> None:
    text = (
        'use crate::a::{b,\n    c};\n#[deprecated(note = "x --\n    use `swap` instead.")]\n'
        "fn f() { g(); }\npub(crate) use ::core::fmt;\nextern crate alloc;\n"
    )
    source = Source(text)
    kinds = [(source.line_of(start), kind) for start, _end, kind in source.uses]
    assert kinds == [(0, "use"), (5, "use"), (6, "extern crate")]
    assert source.in_use(text.index("g()")) is None


def test_a_use_of_a_macro_is_an_import() -> None:
    serde = "rust-analyzer cargo serde 1.0.0 "
    doc = (
        _field(1, b"src/lib.rs")
        + _occ(serde + "crate/", [0, 4, 9])
        + _occ(serde + "forward!", [0, 11, 18])
        + _occ(serde + "forward!", [1, 11, 18])
    )
    source = "use serde::forward;\nfn a() { forward!(x); }\n"
    out = derive(read_index(_field(2, doc)), lambda _: source, "demo")
    assert [(i["line"], i["name"], i["external"]["crate"]) for i in out["imports"]] == [
        (1, "forward", "serde")
    ]
    assert out["calls"] == []
