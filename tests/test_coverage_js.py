"""JavaScript / TypeScript coverage read offline (issue 54): the V8 raw and Istanbul JSON
the tiny project of tests/fixtures/jscov recorded once, one folder per test file
(tests/fixtures/jscov/record.sh), mapped onto the project's functions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphrag_code.errors import InvalidArgumentError
from graphrag_code.impact.coverage import Span, map_paths
from graphrag_code.impact.coverage_js import (
    JsCoverage,
    Ran,
    js_covered_pairs,
    line_starts,
    read_js_coverage,
    v8_lines,
)

FIXTURE = Path(__file__).parent / "fixtures" / "jscov"
PROJECT = FIXTURE / "project"
# the project's functions, methods and classes as the graph has them (1-based lines)
SPANS = {
    "src/math.js": [
        Span("add", 1, 1), Span("sub", 3, 5), Span("div", 7, 12), Span("unused", 14, 16),
    ],
    "src/shapes.js": [
        Span("Circle", 5, 17), Span("Circle.constructor", 6, 8), Span("Circle.area", 10, 12),
        Span("Circle.perimeter", 14, 16), Span("scale", 19, 19), Span("shout", 21, 23),
        Span("describeShape", 25, 33), Span("describeShape.label", 26, 28),
    ],
    "src/units.ts": [Span("toCm", 7, 12), Span("toIn", 14, 16)],
}  # fmt: skip
TESTS = {path: path for path in ("test/math.test.js", "test/shapes.test.js", "test/units.test.ts")}
JS_PAIRS = {
    ("test/math.test.js", "add"),
    ("test/math.test.js", "div"),
    ("test/shapes.test.js", "add"),  # through describeShape
    ("test/shapes.test.js", "Circle.constructor"),
    ("test/shapes.test.js", "Circle.area"),
    ("test/shapes.test.js", "describeShape"),
    ("test/shapes.test.js", "describeShape.label"),  # a function inside a function
}  # not sub, unused, perimeter, scale, nor shout (only on the branch the test did not take)


def pairs(kind: str) -> set[tuple[str, str]]:
    coverage = read_js_coverage(FIXTURE / kind, str(PROJECT))
    # recorded in another checkout: mapped by the paths' ends, as for coverage.py
    paths = map_paths(coverage.measured(), "/elsewhere", SPANS)
    covered = js_covered_pairs(
        coverage, paths, SPANS, TESTS, lambda path: (PROJECT / path).read_text(encoding="utf-8")
    )
    assert not covered.unknown
    assert not covered.outside  # each test file ran in a process of its own
    # every function of a file some test loaded: one no test ran was not run; nyc's did
    # not measure the TypeScript file
    typescript = {"toCm", "toIn"} if kind != "nyc" else set()
    assert covered.measured == {s.id for spans in SPANS.values() for s in spans} - (
        {"toCm", "toIn"} - typescript
    )
    return covered.pairs


def test_a_test_file_the_graph_does_not_know_is_named() -> None:
    coverage = read_js_coverage(FIXTURE / "v8", str(PROJECT))
    paths = map_paths(coverage.measured(), str(PROJECT), SPANS)
    known = {"test/math.test.js": "test/math.test.js"}
    covered = js_covered_pairs(coverage, paths, SPANS, known, lambda _: None)
    assert covered.unknown == {"test/shapes.test.js", "test/units.test.ts"}
    assert covered.pairs == set()  # without its text, a JavaScript file's offsets say nothing
    text = lambda path: (PROJECT / path).read_text(encoding="utf-8")  # noqa: E731
    covered = js_covered_pairs(coverage, paths, SPANS, known, text)
    assert covered.pairs == {("test/math.test.js", "add"), ("test/math.test.js", "div")}


def test_v8_raw_coverage_gives_the_functions_each_test_file_ran() -> None:
    # TypeScript run by tsx: back to its lines through the source maps Node kept in the file
    assert pairs("v8") == JS_PAIRS | {("test/units.test.ts", "toCm")}


def test_istanbul_json_of_c8_and_nyc_gives_the_same() -> None:
    assert pairs("nyc") == JS_PAIRS  # instrumented by Babel: its own function locations
    assert pairs("c8") == JS_PAIRS | {("test/units.test.ts", "toCm")}  # c8 read the maps


def test_v8_scripts_of_node_dependencies_and_compiled_code_are_left_out() -> None:
    coverage = read_js_coverage(FIXTURE / "v8", str(PROJECT))
    assert [run.test for run in coverage.runs] == [
        "test/math.test.js", "test/shapes.test.js", "test/units.test.ts",
    ]  # fmt: skip
    urls = {
        script["url"]
        for file in (FIXTURE / "v8").glob("*/coverage-*.json")
        for script in json.loads(file.read_text())["result"]
    }
    assert any(url.startswith("node:") for url in urls)  # each of these is in the fixture
    assert any("/node_modules/" in url for url in urls)
    assert "" in urls  # a script of no file (esbuild's eval)
    assert {Path(path).name for path in coverage.measured()} == {
        "math.js", "shapes.js", "math.test.js", "shapes.test.js", "units.ts", "units.test.ts",
    }  # fmt: skip
    assert coverage.needs_source_maps == ()


def test_compiled_code_without_a_source_map_is_left_out_and_named(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "test-file.txt").write_text("test/a.test.ts")
    function = {"functionName": "f", "ranges": [{"startOffset": 9, "endOffset": 30, "count": 1}]}
    script = {"scriptId": "9", "url": "file:///repo/src/a.ts", "functions": [function]}
    (tmp_path / "one" / "coverage-1-2-0.json").write_text(json.dumps({"result": [script]}))
    coverage = read_js_coverage(tmp_path, "/repo")
    assert coverage.needs_source_maps == ("/repo/src/a.ts",)
    assert coverage.measured() == set()


def test_v8_offsets_count_utf16_code_units_and_skip_the_module_wrapper() -> None:
    text = "\ufeff// 🎉🎉\nfunction f() {\n  return 1;\n}\n"  # a byte-order mark Node drops
    starts = line_starts(text)
    assert starts == [0, 8, 23, 35, 37]  # each emoji is two code units
    function = 8  # where `function` starts in code units, the mark left out
    assert v8_lines([(function, function + 28), (0, 37)], starts) == [Ran(2, 4)]
    assert v8_lines([(0, 99)], starts) == []  # past the end: the file changed since


def test_the_innermost_function_holding_all_of_a_run_owns_it() -> None:
    runs = JsCoverage((), 0.0, ())
    assert js_covered_pairs(runs, {}, SPANS, TESTS, lambda _: None).pairs == set()
    coverage = read_js_coverage(FIXTURE / "c8", str(PROJECT))
    shapes = next(run for run in coverage.runs if run.test == "test/shapes.test.js")
    lines = next(found for path, found in shapes.lines.items() if path.endswith("shapes.js"))
    assert Ran(26, 28) in lines  # label: inside describeShape, owned by the shorter span


def test_relative_istanbul_paths_are_under_the_root(tmp_path: Path) -> None:
    run = tmp_path / "cov" / "one"
    run.mkdir(parents=True)
    (run / "test-file.txt").write_text("./test/math.test.js\n")
    function = {"name": "div", "loc": {"start": {"line": 7}, "end": {"line": 12}}}
    entry = {"path": "src/math.js", "fnMap": {"0": function}, "f": {"0": 3}}
    (run / "coverage-final.json").write_text(json.dumps({"src/math.js": {"data": entry}}))
    coverage = read_js_coverage(tmp_path / "cov", "/repo")
    assert coverage.runs[0].test == "test/math.test.js"
    assert coverage.runs[0].lines == {"/repo/src/math.js": [Ran(7, 12)]}


def test_a_directory_of_no_javascript_coverage_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="holds no JavaScript coverage"):
        read_js_coverage(tmp_path, None)
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "test-file.txt").write_text("test/a.test.js\n")
    (tmp_path / "one" / "coverage-summary.json").write_text('{"total": {}}')
    with pytest.raises(InvalidArgumentError, match="holds V8"):
        read_js_coverage(tmp_path, None)
    (tmp_path / "one" / "coverage-final.json").write_text("{not json")
    with pytest.raises(InvalidArgumentError, match="not a JSON coverage file"):
        read_js_coverage(tmp_path, None)
    (tmp_path / "one" / "test-file.txt").write_text("")
    with pytest.raises(InvalidArgumentError, match="should hold one line"):
        read_js_coverage(tmp_path, None)
    (tmp_path / "one" / "test-file.txt").write_bytes(b"\xff\xfe")
    with pytest.raises(InvalidArgumentError, match="cannot be read as UTF-8"):
        read_js_coverage(tmp_path, None)


def test_coverage_json_of_the_wrong_shape_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "test-file.txt").write_text("test/a.test.js\n")
    ranges = {"result": [{"url": "/r/a.js", "functions": [{"ranges": [{"count": 1}]}]}]}
    (tmp_path / "one" / "coverage-1.json").write_text(json.dumps(ranges))  # no offsets
    with pytest.raises(InvalidArgumentError, match="is not V8 or Istanbul coverage"):
        read_js_coverage(tmp_path, None)


def test_v8_files_in_another_layout_read_the_same(tmp_path: Path) -> None:
    # Node's compact files are read script by script (its own scripts skipped unparsed);
    # the same JSON laid out otherwise is parsed whole
    for folder in (FIXTURE / "v8").iterdir():
        (tmp_path / folder.name).mkdir()
        for file in folder.iterdir():
            text = file.read_text()
            if file.suffix == ".json":
                assert text.startswith('{"result":[{"scriptId":')
                text = json.dumps(json.loads(text), indent=1)
            (tmp_path / folder.name / file.name).write_text(text)
    compact = read_js_coverage(FIXTURE / "v8", str(PROJECT))
    assert read_js_coverage(tmp_path, str(PROJECT)).runs == compact.runs
