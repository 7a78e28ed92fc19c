"""Rust conventions: `#[test]` and `#[bench]` functions, test modules, integration tests,
and what runs without a caller.

Tests are functions with a `#[test]` attribute (also `#[tokio::test]`, `#[rstest]` and any
attribute whose last path segment is `test`) or `#[bench]`. Test code: files under a `tests/`
or `benches/` folder of a crate (integration tests, each its own crate), and in other files
only the tests and a `#[cfg(test)] mod tests { … }` with what it holds, not the library beside
them (search leaves test code out of concept questions, and lib.rs is where a crate's API
lives). Entry points: `fn main`, and the `pub` items of a library's modules (the API other
crates call).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...conventions.base import ClassTree, ConventionConfig, FileRoles, TestUnit
from ...model import ParsedFile, Symbol, SymbolKind
from .modules import crate_of, in_src

__all__ = ["BUILTIN_METHODS", "RustConventions", "is_test_path"]

# methods of std's strings, collections, options, results and iterators: an unresolved call
# by one of these names says nothing of which repository function runs
BUILTIN_METHODS = frozenset(
    {"clone", "to_string", "to_owned", "into", "from", "as_ref", "as_mut", "unwrap", "expect",
     "unwrap_or", "unwrap_or_else", "unwrap_or_default", "map", "map_err", "and_then", "ok",
     "err", "ok_or", "ok_or_else", "is_some", "is_none", "is_ok", "is_err", "iter", "iter_mut",
     "into_iter", "collect", "filter", "filter_map", "fold", "any", "all", "find", "next",
     "push", "pop", "insert", "remove", "get", "get_mut", "contains", "contains_key", "len",
     "is_empty", "clear", "extend", "join", "split", "trim", "as_str", "as_bytes", "chars",
     "fmt", "eq", "cmp", "partial_cmp", "hash", "default", "new", "borrow", "borrow_mut",
     "lock", "read", "write", "flush", "take", "replace", "entry", "or_insert", "keys",
     "values", "sort", "sort_by", "enumerate", "zip", "rev", "count", "sum", "max", "min"}
)  # fmt: skip
_TESTS = frozenset({"test", "bench"})


def is_test_path(path: str) -> bool:
    """A file of a crate's `tests/` or `benches/` folder (not a module `src/tests/`)."""
    _, parts = crate_of(path)
    return parts[:1] in (("tests",), ("benches",)) and not in_src(path)


def _is_test(symbol: Symbol) -> bool:
    return symbol.kind == SymbolKind.FUNCTION and any(
        attribute.partition("(")[0].strip().rpartition("::")[2] in _TESTS
        for attribute in symbol.decorators
    )


class RustConventions:
    project_files: frozenset[str] = frozenset()

    def configure(self, project: Mapping[str, str]) -> ConventionConfig:
        return ConventionConfig()

    def roles(self, parsed: ParsedFile, config: ConventionConfig, classes: ClassTree) -> FileRoles:
        tests = [s for s in parsed.symbols if _is_test(s)]
        units = tuple(TestUnit(t.qualified_name, parsed.path, None, (), ()) for t in tests)
        return FileRoles(
            path=parsed.path, test_code=is_test_path(parsed.path), tests=units, setups=(),
            test_symbols=tuple(_test_symbols(parsed)),
            entry_points=() if is_test_path(parsed.path) else tuple(_entry_points(parsed)),
        )  # fmt: skip


def _test_modules(parsed: ParsedFile) -> set[str]:
    return {
        s.qualified_name for s in parsed.symbols
        if s.declared_as == "module" and any(a.replace(" ", "") == "cfg(test)"
                                             for a in s.decorators)
    }  # fmt: skip


def _test_symbols(parsed: ParsedFile) -> list[str]:
    """The tests and everything inside a `#[cfg(test)]` module, at any depth: test code in
    a file whose other items are the library (search leaves them out, not the file)."""
    parents = {s.qualified_name: s.parent for s in parsed.symbols}
    modules = _test_modules(parsed)

    def inside(name: str | None) -> bool:
        seen: set[str] = set()
        while name is not None and name not in seen:
            if name in modules:
                return True
            seen.add(name)
            name = parents.get(name)
        return False

    return [s.qualified_name for s in parsed.symbols if _is_test(s) or inside(s.qualified_name)]


def _entry_points(parsed: ParsedFile) -> list[tuple[str, str]]:
    test_modules = _test_modules(parsed)
    found: list[tuple[str, str]] = []
    for symbol in parsed.symbols:
        if symbol.parent in test_modules or _is_test(symbol):
            continue
        if (
            symbol.kind == SymbolKind.FUNCTION
            and symbol.name == "main"
            and (symbol.parent == parsed.module)
        ):
            found.append((symbol.qualified_name, "main function"))
        elif symbol.signature.startswith("pub ") or " pub " in f" {symbol.signature[:40]}":
            found.append((symbol.qualified_name, "public API"))
    return found
