"""The tests whose import a change of code run at import can break.

Code that ran outside every test (the empty context: imports, collection) may have run at
the import of its module, and an error there fails that import, so every test module whose
import runs the module fails to collect, whether its tests ran any of the module's code or
not. Found on sqlparse (stop 67, BENCHMARKS §21): `_TokenType.__getattr__` runs at the import
of `sqlparse.tokens` (module-level attribute reads, which no call edge shows), the package's
`__init__` imports `tokens` through the lexer, and `tests/test_utils.py`, which imports only
`sqlparse.utils` and never runs `tokens`' code, failed with every other test file.

A module's import runs the module and, before it, what it imports and every package holding
it (importing `pkg.utils` runs `pkg/__init__`). The walk goes the other way: from the module
defining the changed code to every module whose import runs it, through the import edges of
its repository and from a package to every module inside it; the test modules it reaches
give all their tests. Import edges do not say whether an import runs at import or in a
function, so the walk may take a few modules too many: never too few.

Save a module the test runner itself imports, before any test (`modules_imported`, from
modules whose code ran outside every test and in every test: pluggy's hooks, which pytest
calls around each test): an error at its import stops the whole run, which any test to run
shows, so it selects no test of its own (on pluggy it would select every test for 32 of its
52 killed mutants, BENCHMARKS §21, stop 67).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from ..graph import GraphReader
from ..graph.records import ImportedModule
from .coverage import Freshness

__all__ = ["import_failure_tests", "modules_imported", "modules_running"]


def modules_running(modules: Sequence[ImportedModule], homes: Iterable[str]) -> set[str]:
    """Ids of the modules whose import runs one of `homes` (module ids), `homes` included:
    a module importing one that does, and every module inside a package that does."""
    importers: dict[str, set[str]] = defaultdict(set)
    for module in modules:
        for imported in module.imports:
            importers[imported].add(module.id)
    by_name = {m.qualified_name: m.id for m in modules}
    inside: dict[str, set[str]] = defaultdict(set)  # package id -> modules right inside it
    for module in modules:
        parent = _package_of(module.qualified_name, by_name)
        if parent is not None:
            inside[parent].add(module.id)
    package = {m.id for m in modules if m.package}
    found = set(homes)
    todo = list(found)
    while todo:
        runs = todo.pop()
        reached = importers[runs] | (inside[runs] if runs in package else set())
        todo += reached - found
        found |= reached
    return found


def modules_imported(modules: Sequence[ImportedModule], starts: Iterable[str]) -> set[str]:
    """Ids of the modules the import of one of `starts` runs, `starts` included: what they
    import, and every package holding one of them."""
    by_id = {m.id: m for m in modules}
    by_name = {m.qualified_name: m.id for m in modules}
    found = set(starts)
    todo = list(found)
    while todo:
        module = by_id.get(todo.pop())
        if module is None:
            continue
        reached = set(module.imports)
        package = _package_of(module.qualified_name, by_name)
        if package is not None:
            reached.add(package)
        todo += reached - found
        found |= reached
    return found


def _package_of(name: str, by_name: Mapping[str, str]) -> str | None:
    """The nearest module holding `name` (`pkg` for `pkg.sub.mod` when `pkg.sub` has no
    module of its own: a namespace package)."""
    parts = name.split(".")[:-1]
    while parts:
        found = by_name.get(".".join(parts))
        if found is not None:
            return found
        parts.pop()
    return None


def import_failure_tests(
    reader: GraphReader, states: Mapping[str, Freshness]
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Target -> (why, in words; the tests of every test module whose import runs the module
    defining it), for the targets that ran outside every test (`states`: outside)."""
    outside = sorted(node for node, state in states.items() if state == "outside")
    if not outside:
        return {}
    modules = reader.module_imports(outside)
    tests_of = {m.id: m.tests for m in modules if m.tests}
    runs_first = modules_imported(modules, [m.id for m in modules if m.runner])
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for home in modules:
        if not home.asked or home.id in runs_first:
            continue
        reached = modules_running(modules, [home.id])
        tests = tuple(sorted({t for m in reached for t in tests_of.get(m, ())}))
        if tests:
            why = (
                f"imports {home.qualified_name} (or a module whose import runs it), where it "
                "ran at import: an error there fails the import"
            )
            found.update((node, (why, tests)) for node in home.asked)
    return found
