"""Which test modules' classes a test module may hold instances of (Python), for the `dispatch`
tier (issue 50).

A test file's classes (`test_x.py`) are fixtures of that file: their instances reach another
test module's code only where one of the two imports the other (`huey.tests.base`'s
`self.get_huey()` runs the override of each `TestCase` of a module importing it). trio's
`sock.close()` in one test file reached the `close` of every fake socket the other test files
define: 55 (caller module, override) pairs, none of which its suite ran. Library code is not
narrowed (a test passes it whatever it builds), nor are helpers' classes (`trio.testing`, a
conftest), made to be handed on, nor a helper module's own calls (`flask.testing`).
"""

from __future__ import annotations

from collections.abc import Callable

from ...model import ParsedFile
from .resolver import Resolver
from .signatures import is_test_module

__all__ = ["reaches_from"]


def reaches_from(parsed: ParsedFile, resolver: Resolver) -> Callable[[str], bool]:
    """Whether instances of classes defined in a module may reach `parsed`'s code: every
    module but, from a test suite's module, another test file that neither imports it nor is
    imported by it."""
    if not is_test_module(parsed.module) or "testing" in parsed.module.split("."):
        return lambda _module: True  # library code, or a helper module (`flask.testing`)
    own = _imported(parsed, resolver)

    def reaches(module: str) -> bool:
        if module == parsed.module or not _test_file(module) or module in own:
            return True
        info = resolver.lookups.module(module)
        return info is None or parsed.module in _imported(info.parsed, resolver)

    return reaches


def _test_file(module: str) -> bool:
    """Whether a module is a test file pytest collects, by its own name."""
    name = module.rpartition(".")[2]
    return name.startswith("test_") or name.endswith("_test")


def _imported(parsed: ParsedFile, resolver: Resolver) -> set[str]:
    """The modules a file's imports may name: each statement's module, and the submodule a
    from-import may bind."""
    found: set[str] = set()
    for statement in parsed.imports:
        module = resolver.absolute_module(statement, parsed.module, parsed.is_package)
        found.add(module)
        if statement.name is not None:
            found.add(f"{module}.{statement.name}" if module else statement.name)
    return found
