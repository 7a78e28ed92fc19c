"""Go conventions: `go test`'s files and functions, and what runs without a caller.

A `_test.go` file is test code; its tests are the functions `go test` runs by name:
`TestXxx(t *testing.T)`, `BenchmarkXxx(b *testing.B)`, `FuzzXxx(f *testing.F)` and `ExampleXxx()`
(the letter after the prefix not lower case). `TestMain(m *testing.M)` is the set-up around
them all. Entry points: `main` of `package main`, every `init`, and exported (capitalised)
package-level functions, types and methods (another module may call them).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from ...conventions.base import ClassTree, ConventionConfig, FileRoles, TestUnit
from ...model import ParsedFile, Symbol, SymbolKind
from .syntax import package_clause

__all__ = ["GoConventions", "go_test_command", "is_test_function", "is_test_path"]

_TEST_PREFIXES = ("Test", "Benchmark", "Fuzz", "Example")


def is_test_path(path: str) -> bool:
    """A `_test.go` file (`go test` builds these only)."""
    return path.endswith("_test.go")


def is_test_function(symbol: Symbol) -> bool:
    """A function `go test` runs: a prefix, then nothing or a letter that is not lower case."""
    if symbol.kind != SymbolKind.FUNCTION or symbol.name == "TestMain":
        return False
    for prefix in _TEST_PREFIXES:
        rest = symbol.name.removeprefix(prefix)
        if rest != symbol.name and (not rest or not rest[0].islower()):
            return True
    return False


def go_test_command(path: str, qualified_name: str, module: str | None) -> str:
    """How `go test` runs one test alone, from the repository's top: its package's folder and
    an anchored name (`go test ./internal/order -run '^TestTotal$'`; a benchmark runs with
    `-bench` and no tests). A module nested below the top needs `go -C <its folder>` and the
    path from there, which this does not write."""
    folder = posixpath.dirname(path)
    package = f"./{folder}" if folder else "."
    name = qualified_name.rpartition(".")[2]
    if module is None or not name.startswith(_TEST_PREFIXES):
        return f"go test {package}"  # the file's tests: its package's
    if name.startswith("Benchmark"):
        return f"go test {package} -run '^$' -bench '^{name}$'"
    return f"go test {package} -run '^{name}$'"


class GoConventions:
    project_files: frozenset[str] = frozenset()

    def configure(self, project: Mapping[str, str]) -> ConventionConfig:
        return ConventionConfig()

    def roles(self, parsed: ParsedFile, config: ConventionConfig, classes: ClassTree) -> FileRoles:
        test_code = is_test_path(parsed.path)
        tests: list[TestUnit] = []
        setups: list[str] = []
        if test_code:
            for symbol in parsed.symbols:
                if is_test_function(symbol):
                    tests.append(TestUnit(symbol.qualified_name, parsed.path))
                elif symbol.kind == SymbolKind.FUNCTION and symbol.name == "TestMain":
                    setups.append(symbol.qualified_name)
        if setups:
            tests = [TestUnit(t.qualified_name, t.path, setups=tuple(setups)) for t in tests]
        return FileRoles(
            path=parsed.path, test_code=test_code, tests=tuple(tests), setups=tuple(setups),
            entry_points=() if test_code else tuple(_entry_points(parsed)),
        )  # fmt: skip


def _entry_points(parsed: ParsedFile) -> list[tuple[str, str]]:
    main = package_clause(parsed) == "main"
    found: list[tuple[str, str]] = []
    for symbol in parsed.symbols:
        if symbol.kind == SymbolKind.FUNCTION and symbol.name == "init":
            found.append((symbol.qualified_name, "init function"))
        elif main and symbol.kind == SymbolKind.FUNCTION and symbol.name == "main":
            found.append((symbol.qualified_name, "main of package main"))
        elif not main and symbol.name[:1].isupper() and symbol.declared_as != "interface method":
            found.append((symbol.qualified_name, "exported"))
    return found
