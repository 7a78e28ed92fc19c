"""TypeScript and JavaScript conventions: Jest, Vitest and Mocha test files, and the exported
API as entry points.

Their tests are callbacks passed to `it(...)` / `test(...)` inside `describe(...)` blocks,
which the parser attributes to the module's scope, so the unit a test's reach starts from is
the test *file* (its module node): a file named `*.test.*` or `*.spec.*`, or one in a
`__tests__` folder or a `test`/`tests` folder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...conventions.base import ClassTree, ConventionConfig, FileRoles, TestUnit
from ...model import ParsedFile, SymbolKind

__all__ = ["BUILTIN_METHODS", "RUNNER_CALLS", "EcmaScriptConventions", "is_test_file"]

# Jest's, Vitest's and Mocha's calls that declare tests and suites; a file in a test folder
# that calls one of the first two runs as a test file (`roles`)
RUNNER_CALLS = frozenset({"it", "test", "describe"})
_TEST_CALLS = ("it", "test")
# Method names an unresolved call is never matched to namesakes by: still the names of
# Python's built-in types (and of files and threads) that one table held for every language
# until each language had its own. A table of JavaScript's own (Array, Map, Promise…) would
# change which functions a test reaches: that is a rule to measure, not a move.
BUILTIN_METHODS = frozenset(
    name
    for kind in (list, dict, set, str, bytes, tuple, frozenset, int, float, object)
    for name in dir(kind)
) | frozenset({"close", "read", "write", "readline", "flush", "seek", "send", "run", "start"})
_TEST_NAME = re.compile(r"\.(test|spec|tests|e2e)\.[cm]?[jt]sx?$")
_TEST_FOLDERS = frozenset({"__tests__", "tests", "test", "__mocks__", "__fixtures__"})


def is_test_file(path: str) -> bool:
    """True for Jest / Vitest / Mocha test files and the folders that hold them."""
    folders = path.split("/")[:-1]
    return bool(_TEST_NAME.search(path)) or any(part in _TEST_FOLDERS for part in folders)


class EcmaScriptConventions:
    """Test files and exported API of TypeScript and JavaScript."""

    project_files: frozenset[str] = frozenset()

    def configure(self, project: Mapping[str, str]) -> ConventionConfig:
        return ConventionConfig()

    def roles(self, parsed: ParsedFile, config: ConventionConfig, classes: ClassTree) -> FileRoles:
        test_code = is_test_file(parsed.path)
        name = parsed.path.rpartition("/")[2]
        runs = test_code and bool(_TEST_NAME.search(name) or "__tests__" in parsed.path)
        runs = runs or (test_code and any(s.callee[-1] in _TEST_CALLS for s in parsed.calls))
        tests = (TestUnit(parsed.module, parsed.path),) if runs else ()
        return FileRoles(
            path=parsed.path,
            test_code=test_code,
            tests=tests,
            entry_points=tuple(_entry_points(parsed)),
        )


def _entry_points(parsed: ParsedFile) -> list[tuple[str, str]]:
    exported = {b.value[0] for b in parsed.bindings if b.kind == "export" and len(b.value) == 1}
    found: list[tuple[str, str]] = []
    public_classes: set[str] = set()
    for symbol in parsed.symbols:
        qn = symbol.qualified_name
        top = symbol.parent == parsed.module
        if top and (symbol.signature.startswith("export ") or symbol.name in exported):
            found.append((qn, "exported"))
            if symbol.kind == SymbolKind.CLASS:
                public_classes.add(qn)
        elif (
            symbol.kind == SymbolKind.METHOD
            and symbol.parent in public_classes
            and not symbol.name.startswith("#")
            and "private " not in symbol.signature
        ):
            found.append((qn, "method of an exported class"))
        if symbol.name == "constructor" or symbol.declared_as == "constructor":
            found.append((qn, "constructor"))
        for decorator in symbol.decorators:
            found.append((qn, f"decorated by @{decorator.split('(', 1)[0]}"))
    return found
