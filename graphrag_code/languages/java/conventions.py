"""Java conventions: JUnit 4 and 5 and TestNG tests, and what runs without a caller.

Tests are the methods annotated `@Test`, `@ParameterizedTest`, `@RepeatedTest`,
`@TestFactory` or `@TestTemplate` (by the last part of the annotation's name, so
`@org.junit.Test` and TestNG's `@Test` too); set-up and tear-down are the methods annotated
`@BeforeEach`, `@AfterEach`, `@BeforeAll`, `@AfterAll` (JUnit 5), `@Before`, `@After`,
`@BeforeClass`, `@AfterClass` (JUnit 4) or TestNG's `@BeforeMethod` / `@AfterMethod` …, run
around the tests of their class and its subclasses. Test code: files under a `src/test/`
folder (Maven and Gradle) and files that declare tests. Entry points: `public static void
main`, the public types of a file and their public and protected members (the API other
code bases call), and what a framework registers by annotation (`@RestController`,
`@Component`, `@Bean`, `@GetMapping` …).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...conventions.base import ClassTree, ConventionConfig, FileRoles, TestUnit
from ...model import ParsedFile, Symbol, SymbolKind
from .runners import BUILD_TOOL_FILES, BuildTools, test_command

__all__ = ["BUILTIN_METHODS", "JavaConventions", "is_test_path"]

# methods of the JDK's strings, collections, streams, builders and `Object`: an unresolved call
# by one of these names says nothing of which repository method runs (the tests stage's
# namesakes skip them)
BUILTIN_METHODS = frozenset(
    {"toString", "equals", "hashCode", "getClass", "compareTo", "clone", "get", "set", "put",
     "add", "addAll", "remove", "removeAll", "clear", "size", "isEmpty", "contains",
     "containsKey", "containsValue", "keySet", "values", "entrySet", "iterator", "hasNext",
     "next", "stream", "map", "filter", "collect", "forEach", "reduce", "sorted", "toList",
     "toArray", "of", "valueOf", "append", "length", "charAt", "substring", "indexOf",
     "startsWith", "endsWith", "trim", "split", "replace", "format", "println", "print",
     "close", "read", "write", "flush", "run", "start", "call", "apply", "accept", "test",
     "getKey", "getValue", "orElse", "isPresent", "ifPresent", "join", "name", "ordinal"}
)  # fmt: skip
_TESTS = frozenset({"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"})
_SETUPS = frozenset(
    {"BeforeEach", "AfterEach", "BeforeAll", "AfterAll", "Before", "After", "BeforeClass",
     "AfterClass", "BeforeMethod", "AfterMethod", "BeforeSuite", "AfterSuite", "BeforeTest",
     "AfterTest", "BeforeGroups", "AfterGroups"}
)  # fmt: skip
_REGISTERED = frozenset(
    {"RestController", "Controller", "Component", "Service", "Repository", "Configuration",
     "Bean", "RequestMapping", "GetMapping", "PostMapping", "PutMapping", "DeleteMapping",
     "PatchMapping", "EventListener", "Scheduled", "WebServlet", "WebFilter", "WebListener",
     "Path", "GET", "POST", "PUT", "DELETE"}
)  # fmt: skip


def is_test_path(path: str) -> bool:
    """A file under `src/test/` (Maven's and Gradle's test sources)."""
    return "/src/test/" in f"/{path}"


def annotation_names(symbol: Symbol) -> frozenset[str]:
    """The last part of each annotation's name (`org.junit.Test(timeout = 1)` -> `Test`)."""
    return frozenset(a.partition("(")[0].strip().rpartition(".")[2] for a in symbol.decorators)


class JavaConventions:
    project_files: frozenset[str] = BUILD_TOOL_FILES  # Maven or Gradle runs the tests

    def configure(self, project: Mapping[str, str]) -> ConventionConfig:
        return BuildTools.read(project)

    def roles(self, parsed: ParsedFile, config: ConventionConfig, classes: ClassTree) -> FileRoles:
        tests: list[Symbol] = []
        setups: dict[str, list[str]] = {}
        for symbol in parsed.symbols:
            if symbol.kind != SymbolKind.METHOD:
                continue
            names = annotation_names(symbol)
            if names & _TESTS:
                tests.append(symbol)
            elif names & _SETUPS:
                setups.setdefault(symbol.parent, []).append(symbol.qualified_name)
        units = []
        for test in tests:
            around = [s for cls in classes.ancestors(test.parent) for s in setups.get(cls, [])]
            around = around or setups.get(test.parent, [])
            runner = test_command(config, parsed.path, test.qualified_name, parsed.module)
            units.append(
                TestUnit(test.qualified_name, parsed.path, test.parent, (), tuple(around),
                         runner=runner)
            )  # fmt: skip
        test_code = bool(tests) or is_test_path(parsed.path)
        return FileRoles(
            path=parsed.path, test_code=test_code, tests=tuple(units),
            setups=tuple(s for found in setups.values() for s in found),
            entry_points=() if test_code else tuple(_entry_points(parsed)),
        )  # fmt: skip


def _entry_points(parsed: ParsedFile) -> list[tuple[str, str]]:
    public: set[str] = {parsed.module}
    found: list[tuple[str, str]] = []
    for symbol in parsed.symbols:
        words = symbol.signature.split("(")[0].split()
        if _REGISTERED & annotation_names(symbol):
            found.append((symbol.qualified_name, "registered by annotation"))
        elif (
            symbol.kind == SymbolKind.METHOD
            and symbol.name == "main"
            and {"public", "static"} <= set(words)
        ):
            found.append((symbol.qualified_name, "main method"))
        elif symbol.parent in public and (
            "public" in words or ("protected" in words and symbol.kind == SymbolKind.METHOD)
        ):
            found.append((symbol.qualified_name, "public API"))
        else:
            continue
        if symbol.kind == SymbolKind.CLASS:
            public.add(symbol.qualified_name)
    return found
