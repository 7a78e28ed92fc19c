"""Jest's and Vitest's coverage read offline (issue 54, stop 67): Istanbul JSON the README's
loops wrote on two public packages, one test file at a time, one folder of each kept and
trimmed to one source file (tests/fixtures/jsrunners/record.sh), mapped onto the functions
of those files as the graph has them. Paths are absolute, as Jest and Vitest write them, and
name another checkout: the import maps them by their ends."""

from __future__ import annotations

import json
from pathlib import Path

from graphrag_code.impact.coverage import Span, map_paths
from graphrag_code.impact.coverage_js import js_covered_pairs, read_js_coverage

FIXTURE = Path(__file__).parent / "fixtures" / "jsrunners"


def function(name: str, start: int, end: int) -> Span:
    """A function or method as the import builds its span: with a body line (a class has
    none: 0)."""
    return Span(name, start, end, end + 1)


# cron-parser 5.10.0's src/CronExpressionParser.ts: enums and interfaces are classes of the
# graph; the parser's helpers are static private methods (`static #parseRepeat(...)`)
PARSER = "src/CronExpressionParser.ts"
PARSER_SPANS = [
    Span("PredefinedExpressions", 20, 31), Span("CronUnit", 33, 40), Span("Months", 43, 56),
    Span("DayOfWeek", 59, 67), Span("RawCronFields", 69, 76),
    Span("CronExpressionParser", 83, 568), function("parse", 93, 156),
    function("#getRawFields", 165, 183), function("#parseField", 195, 222),
    function("#parseWildcard", 230, 232), function("#parseHashed", 243, 289),
    function("#hashedValue", 298, 300), function("#fieldName", 307, 309),
    function("#hashedRange", 323, 348), function("#hashedStep", 363, 390),
    function("#parseSequence", 399, 428), function("handleResult", 401, 418),
    function("#parseRepeat", 438, 451), function("#validateRange", 462, 470),
    function("#validateRepeatInterval", 479, 483), function("#createRange", 494, 505),
    function("#parseRange", 516, 532), function("#parseNthDay", 540, 556),
    function("#isValidConstraintChar", 565, 567),
]  # fmt: skip
PRIVATE = {s.id for s in PARSER_SPANS if s.id.startswith("#")}


def pairs(kind: str, path: str, spans: list[Span]) -> tuple[str, set[str]]:
    """The test file of the one folder of `kind`, and the nodes it ran."""
    coverage = read_js_coverage(FIXTURE / kind, None)
    (run,) = coverage.runs
    paths = map_paths(coverage.measured(), "/elsewhere", {path: spans})
    assert list(paths.values()) == [path]
    covered = js_covered_pairs(coverage, paths, {path: spans}, {run.test: run.test}, str)
    assert not covered.unknown
    assert not covered.outside
    return run.test, {node for test, node in covered.pairs if test == run.test}


def test_jest_default_coverage_says_private_methods_ran_by_their_statements() -> None:
    # babel's istanbul lists no `#method` among its functions: its statements say it ran
    test, ran = pairs("jest", PARSER, PARSER_SPANS)
    assert test == "tests/CronExpressionParser.test.ts"
    assert ran >= PRIVATE  # this file's tests reach every one of them (V8 agrees: jest-v8)
    # `#isValidConstraintChar` is one statement holding an arrow function on its line;
    # the enums' compiled functions ran when the module loaded (Istanbul lists them)
    assert ran - PRIVATE == {"parse", "handleResult", "PredefinedExpressions", "CronUnit",
                             "Months", "DayOfWeek"}  # fmt: skip
    # not the class: its body's statements (a static field, the declaration) run at import
    assert "CronExpressionParser" not in ran


def test_jest_v8_provider_lists_private_methods_and_field_initialisers() -> None:
    spans = [
        Span("CronField", 32, 265), function("min", 44, 47), function("max", 52, 55),
        function("constructor", 86, 103), function("min (instance)", 109, 112),
        function("sorter", 170, 176), function("validate", 229, 249),
        function("charTest", 233, 233), function("rangeTest", 234, 237),
        function("#isWildcardValue", 256, 264),
    ]  # fmt: skip
    test, ran = pairs("jest-v8", "src/fields/CronField.ts", spans)
    assert test == "tests/CronField.test.ts"
    # the class through V8's `<instance_members_initializer>` (its fields, set at `new`); the
    # static getters `min` and `max` never ran, the instance `min` did
    assert ran == {"CronField", "constructor", "min (instance)", "sorter", "validate",
                   "charTest", "rangeTest", "#isWildcardValue"}  # fmt: skip


def test_vitest_v8_provider_maps_typescript_back_to_its_lines() -> None:
    spans = [
        function("isRelative", 28, 30), Span("HasProtocolOptions", 32, 35),
        function("hasProtocol", 71, 85), function("isScriptProtocol", 106, 108),
        function("withBase", 290, 303), function("withoutBase", 318, 333),
        function("joinURL", 427, 441), function("resolveURL", 616, 661),
    ]  # fmt: skip
    test, ran = pairs("vitest", "src/utils.ts", spans)
    assert test == "test/base.test.ts"
    # `hasProtocol`'s Istanbul function starts at its body (line 74), after its parameters
    assert ran == {"hasProtocol", "joinURL", "withBase", "withoutBase"}


def location(start: tuple[int, int], end: tuple[int, int]) -> dict[str, dict[str, int]]:
    return {"start": {"line": start[0], "column": start[1]},
            "end": {"line": end[0], "column": end[1]}}  # fmt: skip


def test_a_statement_is_a_listed_functions_where_it_overlaps_it(tmp_path: Path) -> None:
    """c8 writes a function's first line as a statement of the module, run whether or not
    the function was: it names no function; a statement holding a whole function counts."""
    folder = tmp_path / "cov" / "t"
    folder.mkdir(parents=True)
    (folder / "test-file.txt").write_text("test/t.test.js\n", encoding="utf-8")
    fns = {"0": location((1, 7), (3, 1)), "1": location((6, 30), (6, 50))}
    entry = {
        "path": str(tmp_path / "src" / "m.js"),
        "fnMap": {k: {"name": k, "decl": v, "loc": v} for k, v in fns.items()},
        "f": {"0": 0, "1": 0},  # neither function ran (`xs` was empty)
        "statementMap": {
            "0": location((1, 0), (1, 30)),  # c8: the first line of the uncalled function 0
            "1": location((6, 4), (6, 52)),  # `return xs.some((x) => ...)`, in an unlisted
        },  # method of lines 5-7
        "s": {"0": 1, "1": 1},
    }
    (folder / "coverage-final.json").write_text(json.dumps({entry["path"]: entry}), "utf-8")
    spans = {"src/m.js": [function("first", 1, 3), function("method", 5, 7)]}
    coverage = read_js_coverage(tmp_path / "cov", str(tmp_path))
    paths = map_paths(coverage.measured(), str(tmp_path), spans)
    covered = js_covered_pairs(coverage, paths, spans, {"test/t.test.js": "t"}, str)
    assert covered.pairs == {("t", "method")}
