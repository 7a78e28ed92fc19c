"""Which test file ran which code, from TypeScript/JavaScript coverage recorded one test file
at a time, mapped onto the graph: the pure part (`coverage.py` is coverage.py's).

    DIR/<any name>/test-file.txt        the test file, relative to the repository root
    DIR/<any name>/coverage-*.json      V8 raw coverage (`NODE_V8_COVERAGE=<that folder>`)
    DIR/<any name>/coverage-final.json  Istanbul JSON (c8 `--reporter=json`, Jest or Vitest
                                        `--coverage` with the json reporter)

JavaScript tests are test files (their module nodes), so a folder per test file is the
context a coverage.py run has per test. V8: a function ran when its first range's count is
above zero (nested ranges are its blocks); offsets count UTF-16 code units of the file's
text, so they are mapped to lines with the indexed file. Offsets of compiled code
(TypeScript, JSX) point into the emitted JavaScript: they go back to the sources through the
source maps Node keeps in the file when they are enabled (tsx, `--enable-source-maps`:
`sourcemaps.py`), else the file is left out (and named); Istanbul JSON is mapped back
already (Jest, Vitest, c8). Istanbul: a function ran when its `f` count is above zero. Its
statements count only outside every function it lists (c8 writes a function's first line as
a statement of the module's code, run whether or not the function was): Jest's default
instrumenter (babel's istanbul) lists no private method (`#name() {}`), whose statements
alone say it ran; such a statement ran in the innermost function or method of the graph
that holds more than it (classes left out: a class body's statements run at import). A
ran function belongs to the innermost node whose lines hold all of it; code outside every
node (a module's top level) says nothing of a test, as in Python.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from ..errors import InvalidArgumentError
from .coverage import Covered, Span
from .sourcemaps import SourceMap

__all__ = [
    "JsCoverage",
    "Ran",
    "TestFileRun",
    "js_covered_pairs",
    "line_starts",
    "read_js_coverage",
    "v8_lines",
]

TEST_FILE = "test-file.txt"
# files V8 offsets map onto as they are: what Node runs without a compile step
_PLAIN_JS = (".js", ".cjs", ".mjs")
_V8_NAME = re.compile(r"coverage-.*\.json")


@dataclass(frozen=True)
class Ran:
    """A function that ran, in 1-based lines (both inclusive)."""

    start: int
    end: int


@dataclass(frozen=True)
class TestFileRun:
    """One test file run on its own: what ran, by measured file (as the coverage names it).
    `offsets`: V8 functions as UTF-16 offsets [start, end), mapped to lines with the file's
    text (`v8_lines`); `lines`: Istanbul's, already in lines; `statements`: Istanbul's
    statements that ran outside every function it lists."""

    test: str
    offsets: dict[str, list[tuple[int, int]]]
    lines: dict[str, list[Ran]]
    statements: dict[str, list[Ran]] = field(default_factory=dict)

    def measured(self) -> set[str]:
        return set(self.offsets) | set(self.lines)


@dataclass(frozen=True)
class JsCoverage:
    """What a coverage directory holds."""

    runs: tuple[TestFileRun, ...]
    newest: float  # the newest coverage file's modification time (seconds since the epoch)
    needs_source_maps: tuple[str, ...]  # V8 files of compiled code Node kept no map of

    def measured(self) -> set[str]:
        return set().union(*(run.measured() for run in self.runs)) if self.runs else set()


def read_js_coverage(folder: str | Path, root: str | None) -> JsCoverage:
    """Read every `<name>/test-file.txt` folder of `folder`: V8 raw and Istanbul JSON files
    anywhere inside it (by content, not name); relative Istanbul paths are under `root`."""
    base = Path(folder)
    runs: list[TestFileRun] = []
    newest = 0.0
    compiled: set[str] = set()
    for marker in sorted(base.glob(f"*/{TEST_FILE}")):
        test = _test_path(marker)
        offsets: dict[str, list[tuple[int, int]]] = defaultdict(list)
        lines: dict[str, list[Ran]] = defaultdict(list)
        statements: dict[str, list[Ran]] = defaultdict(list)
        for file in sorted(marker.parent.rglob("coverage-*.json")):
            if not _V8_NAME.fullmatch(file.name) or not file.is_file():
                continue
            data = _load(file)
            try:
                if isinstance(data, dict) and isinstance(data.get("result"), list):
                    compiled.update(_read_v8(data, offsets, lines))
                elif isinstance(data, dict) and _is_istanbul(data):
                    for path, ran, loose in _istanbul_functions(data, root):
                        lines[path].extend(ran)
                        if loose:
                            statements[path].extend(loose)
                else:
                    continue
            except (AttributeError, KeyError, TypeError, ValueError) as error:
                raise InvalidArgumentError(
                    f"{file} is not V8 or Istanbul coverage as Node, c8 or nyc write it: "
                    f"{type(error).__name__}: {error}"
                ) from error
            newest = max(newest, file.stat().st_mtime)
        runs.append(TestFileRun(test, dict(offsets), dict(lines), dict(statements)))
    if not runs:
        raise InvalidArgumentError(
            f"{base} is a directory but holds no JavaScript coverage: expected one folder per "
            f"test file, each with {TEST_FILE} (the test file's path) and coverage-*.json (V8, "
            "NODE_V8_COVERAGE) or coverage-final.json (Istanbul); a coverage.py data file is "
            "passed as a file"
        )
    if not newest:
        raise InvalidArgumentError(
            f"none of the {len(runs)} folder(s) of {base} with a {TEST_FILE} holds V8 "
            "(coverage-*.json) or Istanbul (coverage-final.json) coverage"
        )
    return JsCoverage(tuple(runs), newest, tuple(sorted(compiled)))


def _test_path(marker: Path) -> str:
    try:
        text = marker.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidArgumentError(f"{marker} cannot be read as UTF-8 text: {error}") from error
    if not text or "\n" in text:
        raise InvalidArgumentError(
            f"{marker} should hold one line, the test file's path from the repository root"
        )
    return Path(text).as_posix().removeprefix("./")


def _load(file: Path) -> Any:
    """The file's JSON; for V8's, as Node writes it, only its scripts of local files and the
    source maps Node kept (`_v8_local_scripts`)."""
    try:
        text = file.read_text(encoding="utf-8")
        local = _v8_local_scripts(text)
        return json.loads(text) if local is None else local
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise InvalidArgumentError(f"{file} is not a JSON coverage file: {error}") from error


# A script of Node's compact V8 JSON starts so; `{"` never occurs inside a JSON string (its
# quotes are escaped), so each match is a script object (and the key the map cache's)
_SCRIPT = re.compile(r'\{"scriptId":"[^"\\]*","url":"((?:[^"\\]|\\.)*)"')
_MAP_CACHE = '"source-map-cache":'


def _v8_local_scripts(text: str) -> dict[str, Any] | None:
    """A V8 coverage file in Node's compact layout with only its scripts of local files,
    each parsed alone: Node's own scripts are most of a file (~2 MB per mocha test file, 95%
    `node:` code), and parsing them was most of an import. None for any other layout."""
    if not text.startswith('{"result":[{"scriptId":'):
        return None
    decoder = json.JSONDecoder()
    scripts: list[Any] = []
    for match in _SCRIPT.finditer(text):
        url = match.group(1)
        if _local_path(json.loads(f'"{url}"') if "\\" in url else url) is not None:
            scripts.append(decoder.raw_decode(text, match.start())[0])
    at = text.rfind(_MAP_CACHE)
    maps = decoder.raw_decode(text, at + len(_MAP_CACHE))[0] if at > 0 else {}
    return {"result": scripts, "source-map-cache": maps}


def _local_path(url: str) -> str | None:
    """The file a V8 script URL names; None for Node's own code (`node:`), code of
    dependencies (`node_modules`) and scripts of no file (eval, the REPL). String tests
    first: a mocha run names ~500 scripts, most of them dependencies'."""
    if "/node_modules/" in url or "\\node_modules\\" in url:
        return None
    if url.startswith("file://"):
        return unquote(urlparse(url).path)
    return url if os.path.isabs(url) else None


def _v8_functions(scripts: list[Any]) -> Iterable[tuple[str, str, list[tuple[int, int]]]]:
    """(URL, local path, ranges of the functions that ran) of each script of a local file."""
    for script in scripts:
        url = str(script.get("url", ""))
        path = _local_path(url)
        if path is None:
            continue
        ran = [
            (int(ranges[0]["startOffset"]), int(ranges[0]["endOffset"]))
            for function in script.get("functions", ())
            if (ranges := function.get("ranges")) and ranges[0].get("count", 0) > 0
        ]
        yield url, path, ran


def _read_v8(
    data: dict[str, Any],
    offsets: dict[str, list[tuple[int, int]]],
    lines: dict[str, list[Ran]],
) -> set[str]:
    """Add a V8 file's ran functions: plain JavaScript as offsets, compiled code through its
    source map as lines of its sources; the compiled files of no map are returned."""
    maps = data.get("source-map-cache") or {}
    compiled: set[str] = set()
    for url, path, ranges in _v8_functions(data["result"]):
        entry = maps.get(url)
        mapped = SourceMap.from_cache(url, entry) if entry else None
        if mapped is not None:
            for source, function in _through(mapped, ranges):
                lines[source].append(function)
        elif path.endswith(_PLAIN_JS):
            offsets[path].extend(ranges)
        else:
            compiled.add(path)
    return compiled


def _through(mapped: SourceMap, ranges: Iterable[tuple[int, int]]) -> Iterable[tuple[str, Ran]]:
    """Ran functions of compiled code, in the lines of the local sources they came from."""
    for start, end in ranges:
        found = mapped.original_range(start, end)
        if found is not None and (path := _local_path(found[0])) is not None:
            yield path, Ran(found[1], found[2])


def _is_istanbul(data: dict[str, Any]) -> bool:
    return bool(data) and all(
        isinstance(value, dict) and "fnMap" in value.get("data", value) for value in data.values()
    )


def _istanbul_functions(
    data: dict[str, Any], root: str | None
) -> Iterable[tuple[str, list[Ran], list[Ran]]]:
    """(path, ran functions, ran statements outside every listed function) of each file."""
    for key, value in data.items():
        entry = value.get("data", value)  # istanbul's older FileCoverage JSON nests it
        path = str(entry.get("path") or key)
        if "/node_modules/" in Path(path).as_posix():
            continue
        if not os.path.isabs(path) and root is not None:
            path = os.path.join(root, path)
        yield path, _istanbul_ran(entry), _loose_statements(entry)


def _istanbul_ran(entry: Mapping[str, Any]) -> list[Ran]:
    counts = entry.get("f", {})
    return [
        Ran(*_lines(function.get("loc") or function.get("decl")))
        for key, function in entry.get("fnMap", {}).items()
        if counts.get(key, 0) > 0
    ]


def _loose_statements(entry: Mapping[str, Any]) -> list[Ran]:
    """The statements that ran outside every function the file lists: a statement is the
    function's where it overlaps it, unless it holds all of it (`return xs.some((x) => ...)`
    in an unlisted method); c8's statement of a function's first line overlaps its start."""
    # a function that overlaps a statement without lying inside it holds its first or last
    # line: only those are looked at (a file has hundreds of each)
    by_line: dict[int, list[tuple[tuple[int, int], tuple[int, int]]]] = defaultdict(list)
    for function in entry.get("fnMap", {}).values():
        a, b = _positions(function.get("loc") or function.get("decl"))
        for line in range(a[0], b[0] + 1):
            by_line[line].append((a, b))
    counts = entry.get("s", {})
    found: list[Ran] = []
    for key, location in entry.get("statementMap", {}).items():
        if counts.get(key, 0) <= 0:
            continue
        start, end = _positions(location)
        near = by_line.get(start[0], []) + by_line.get(end[0], [])
        if not any(
            start <= b and a <= end and not (start <= a and b <= end and (a, b) != (start, end))
            for a, b in near
        ):
            found.append(Ran(start[0], end[0]))
    return found


def _positions(location: Any) -> tuple[tuple[int, int], tuple[int, int]]:
    """An Istanbul location's (line, column) ends; a column left out (Vitest writes `null`
    for a line's end) is the line's start or end."""
    lines = _lines(location)
    start, end = location["start"].get("column"), location["end"].get("column")
    return (lines[0], int(start) if start is not None else 0), (
        lines[1],
        int(end) if end is not None else 1 << 30,
    )


def _lines(location: Any) -> tuple[int, int]:
    try:
        return int(location["start"]["line"]), int(location["end"]["line"])
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidArgumentError(f"an Istanbul location without lines: {location!r}") from error


def line_starts(text: str) -> list[int]:
    """The UTF-16 offset each line of `text` starts at (V8 counts code units; a byte-order
    mark is not part of the script Node compiles)."""
    starts = [0]
    total = 0
    for line in text.removeprefix("\ufeff").splitlines(keepends=True):
        total += len(line.encode("utf-16-le")) // 2
        starts.append(total)
    return starts


def v8_lines(ranges: Iterable[tuple[int, int]], starts: Sequence[int]) -> list[Ran]:
    """V8 function ranges as lines; the script's own top level (a range from 0 to its end:
    the module wrapper) and ranges past the text (it changed since) are left out."""
    size = starts[-1]
    found: list[Ran] = []
    for start, end in ranges:
        if (start <= 0 and end >= size) or end > size or end <= start:
            continue
        found.append(Ran(bisect.bisect_right(starts, start), bisect.bisect_right(starts, end - 1)))
    return found


def js_covered_pairs(
    coverage: JsCoverage,
    paths: Mapping[str, str],
    spans: Mapping[str, Sequence[Span]],
    tests: Mapping[str, str],
    text_of: Callable[[str], str | None],
) -> Covered:
    """Map what each test file ran onto the innermost node holding it (`paths`: measured
    file -> graph path; `tests`: test file -> its node; `text_of`: a graph path's text, for
    V8's offsets)."""
    pairs: set[tuple[str, str]] = set()
    unknown: set[str] = set()
    measured = {span.id for path in set(paths.values()) for span in spans.get(path, ())}
    starts: dict[str, list[int] | None] = {}
    owners: dict[tuple[str, Ran], str | None] = {}
    holders: dict[tuple[str, Ran], str | None] = {}
    # a class has no body line (0): its body's statements run at import
    functions = {path: [s for s in found if s.body] for path, found in spans.items()}
    for run in coverage.runs:
        test = tests.get(run.test)
        if test is None:
            unknown.add(run.test)
            continue
        for file, found in _run_lines(run, paths, starts, text_of):
            for ran in found:
                key = (file, ran)
                if key not in owners:
                    owners[key] = _owner(spans.get(file, ()), ran)
                node = owners[key]
                if node is not None and node != test:
                    pairs.add((test, node))
        for file, loose in _run_statements(run, paths):
            for ran in loose:
                key = (file, ran)
                if key not in holders:
                    holders[key] = _holder(functions.get(file, ()), ran)
                node = holders[key]
                if node is not None and node != test:
                    pairs.add((test, node))
    return Covered(pairs, unknown, measured, set())


def _run_statements(run: TestFileRun, paths: Mapping[str, str]) -> Iterable[tuple[str, list[Ran]]]:
    for file, loose in run.statements.items():
        path = paths.get(file)
        if path is not None:
            yield path, loose


def _run_lines(
    run: TestFileRun,
    paths: Mapping[str, str],
    starts: dict[str, list[int] | None],
    text_of: Callable[[str], str | None],
) -> Iterable[tuple[str, list[Ran]]]:
    for file, ranges in run.offsets.items():
        path = paths.get(file)
        if path is None:
            continue
        if path not in starts:
            text = text_of(path)
            starts[path] = line_starts(text) if text is not None else None
        file_starts = starts[path]
        if file_starts is not None:
            yield path, v8_lines(ranges, file_starts)
    for file, found in run.lines.items():
        path = paths.get(file)
        if path is not None:
            yield path, found


def _owner(spans: Sequence[Span], ran: Ran) -> str | None:
    """The innermost span holding all of `ran` (the later one where two are as long)."""
    holding = [span for span in spans if span.start <= ran.start and ran.end <= span.end]
    if not holding:
        return None
    return min(holding, key=lambda span: (span.end - span.start, -span.start)).id


def _holder(functions: Sequence[Span], ran: Ran) -> str | None:
    """The innermost of `functions` holding more than the statement `ran` (a function's own
    declaration ran where it is declared, not inside it)."""
    return _owner([s for s in functions if (s.start, s.end) != (ran.start, ran.end)], ran)
