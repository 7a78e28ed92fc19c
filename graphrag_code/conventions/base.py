"""What every language's test and entry-point conventions offer, and the records they emit.

A language plug-in recognises, file by file, its *test code* (test modules, helpers, fixtures),
the *tests* themselves (the units a test runner runs: a pytest function, a unittest method, a
Jest/Vitest test file), the fixtures and set-up code each test runs, and the *entry points*
that nothing in the repository calls yet that run (console scripts, routes registered by a
decorator, `__all__` exports, dunders, overrides of an external base class). Everything is in
qualified-name space; the ingest stage maps names to node ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from ..model import ParsedFile, ParseIssue

__all__ = [
    "ClassTree",
    "ConventionConfig",
    "Conventions",
    "FileRoles",
    "Fixture",
    "TestKind",
    "TestUnit",
]

TestKind = Literal["test", "fixture", "setup"]
"""The role of a node in test code: a test a runner runs, a fixture, a set-up/tear-down."""


@dataclass(frozen=True)
class Fixture:
    """A pytest-style fixture: requested by name, visible in a scope."""

    qualified_name: str  # the fixture function
    name: str  # the name tests request it by (`@pytest.fixture(name=...)` or the function's)
    path: str  # the file defining it
    directory: str | None  # conftest fixtures: the folder they serve ("" the root); else None
    class_name: str | None  # fixtures defined in a test class serve that class only
    autouse: bool = False
    requests: tuple[str, ...] = ()  # fixture names it requests itself


@dataclass(frozen=True)
class TestUnit:
    """One test: a test function or method, or (Jest, Vitest, Mocha) a whole test file,
    named by its module."""

    __test__ = False  # a record, not a pytest test class

    qualified_name: str
    path: str
    class_name: str | None = None
    requests: tuple[str, ...] = ()  # fixtures by name: parameters and `usefixtures`
    setups: tuple[str, ...] = ()  # set-up/tear-down methods run around it (qualified names)
    # repository code it is given as values (`@pytest.mark.parametrize("v", [lt, le])`):
    # dotted names as its file's imports spell them out, which it runs as it runs a fixture
    values: tuple[str, ...] = ()
    # what runs it alone where only the project's files tell (Java: Maven or Gradle, by the
    # build files), stored on its node; None: `Language.runner_id` names it from its path
    runner: str | None = None
    # the id the runner collects it under (`tests/b.py::TestB::test_m`), where one method runs
    # as a test of each class that has it: a method `class_name` inherits (`qualified_name`
    # is then the base's) runs once per collecting class, each run its own case
    case: str | None = None
    # collected where a test module imports it (`from test_a import TestA`: pytest collects
    # every test in a module's namespace, as that module's case), not where it is defined
    imported: bool = False

    @property
    def inherited(self) -> bool:
        """A test method the collecting class has from a base class, not its own."""
        return self.class_name is not None and (
            self.qualified_name.rpartition(".")[0] != self.class_name
        )


@dataclass(frozen=True)
class FileRoles:
    """What the conventions recognised in one file."""

    path: str
    test_code: bool = False  # the whole file is test code (a test module, conftest, helper)
    # test code inside a file that is not (Rust's `#[cfg(test)] mod tests`): qualified names
    test_symbols: tuple[str, ...] = ()
    tests: tuple[TestUnit, ...] = ()
    fixtures: tuple[Fixture, ...] = ()
    setups: tuple[str, ...] = ()  # set-up/tear-down code (qualified names)
    # (qualified name, reason): code that runs though nothing here calls it
    entry_points: tuple[tuple[str, str], ...] = ()


@dataclass
class ConventionConfig:
    """What a language's conventions read once per run from the project files (pytest's
    `testpaths` and `python_files`, console scripts, package.json `bin`)."""

    issues: dict[str, list[ParseIssue]] = field(default_factory=dict)  # path -> problems


class ClassTree:
    """The classes of a repository and their bases, for conventions that depend on
    inheritance (a unittest `TestCase` subclass, a method overriding an external base).

    `bases` maps a class's qualified name to its direct bases in order: internal classes by
    qualified name, external ones by their dotted name with `external` set."""

    def __init__(
        self,
        bases: Mapping[str, Iterable[tuple[str, bool]]],
        methods: Mapping[str, Iterable[str]],
    ) -> None:
        self._bases = {name: tuple(found) for name, found in bases.items()}
        self._methods = {name: frozenset(found) for name, found in methods.items()}

    def is_class(self, name: str) -> bool:
        """A class of the repository (one with bases or methods)."""
        return name in self._bases or name in self._methods

    def ancestors(self, name: str) -> list[str]:
        """`name` and its internal ancestors, breadth first (a simple stand-in for the MRO)."""
        order = [name]
        seen = {name}
        for current in order:
            for base, external in self._bases.get(current, ()):
                if not external and base not in seen:
                    seen.add(base)
                    order.append(base)
        return order

    def external_bases(self, name: str) -> list[str]:
        """External classes `name` derives from, directly or through internal bases."""
        found: list[str] = []
        for ancestor in self.ancestors(name):
            for base, external in self._bases.get(ancestor, ()):
                if external and base not in found:
                    found.append(base)
        return found

    def find_method(self, name: str, method: str) -> str | None:
        """The qualified name of `method` as `name` resolves it through internal bases."""
        for ancestor in self.ancestors(name):
            if method in self._methods.get(ancestor, ()):
                return f"{ancestor}.{method}"
        return None

    def inherited(self, name: str) -> list[str]:
        """The qualified names of the methods `name` has from its internal bases and does not
        define itself, each as `find_method` resolves it (the nearest base's)."""
        own = self._methods.get(name, frozenset())
        found: dict[str, str] = {}
        for ancestor in self.ancestors(name)[1:]:
            for method in sorted(self._methods.get(ancestor, ())):
                if method not in own:
                    found.setdefault(method, f"{ancestor}.{method}")
        return list(found.values())

    def own_methods(self, name: str) -> list[str]:
        """The qualified names of the methods class `name` defines itself."""
        return [f"{name}.{method}" for method in sorted(self._methods.get(name, ()))]

    def module_classes(self, module: str) -> list[str]:
        """The classes defined at the top of `module` (what `from module import *` may bind)."""
        return sorted(
            name
            for name in self._bases.keys() | self._methods.keys()
            if name.rpartition(".")[0] == module
        )

    def overridden(self, name: str, method: str) -> str | None:
        """The internal base-class method that `name.method` overrides, if any."""
        for ancestor in self.ancestors(name)[1:]:
            if method in self._methods.get(ancestor, ()):
                return f"{ancestor}.{method}"
        return None


class Conventions(Protocol):
    """A language's test and entry-point conventions (one instance may serve several
    languages, as TypeScript's serves JavaScript)."""

    project_files: frozenset[str]  # names of project files it reads (`pyproject.toml`)

    def configure(self, project: Mapping[str, str]) -> ConventionConfig:
        """The run's configuration from the project files' text (path -> text); never raises
        on bad content: problems go to `ConventionConfig.issues`."""
        ...

    def roles(self, parsed: ParsedFile, config: ConventionConfig, classes: ClassTree) -> FileRoles:
        """The tests, fixtures, set-ups and entry points of one file."""
        ...
