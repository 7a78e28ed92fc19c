"""Which code runs around each test: its fixtures (requested by name, resolved by pytest's
visibility rules, transitively), the autouse fixtures in its scope, and its set-up methods.

Visibility, nearest first: a fixture of the test's class, of its module, then of the
conftest.py files in the folders above it (the nearest wins), then plugin fixtures. A fixture
requesting its own name (`def app(app)`) gets the next outer one, as pytest does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .base import FileRoles, Fixture, TestUnit

__all__ = ["Seed", "seeds_of_tests"]


@dataclass(frozen=True)
class Seed:
    """Code a test runs besides its own body: `via` says why ("fixture app", "setup setUp")."""

    path: str
    qualified_name: str
    via: str


def _ancestor(folder: str, path: str) -> bool:
    return folder == "" or path.startswith(folder + "/")


class _Fixtures:
    def __init__(self, fixtures: Iterable[Fixture]) -> None:
        self.by_name: dict[str, list[Fixture]] = {}
        self.autouse: list[Fixture] = []
        for fixture in fixtures:
            self.by_name.setdefault(fixture.name, []).append(fixture)
            if fixture.autouse:
                self.autouse.append(fixture)

    @staticmethod
    def _rank(fixture: Fixture, path: str, class_name: str | None) -> int | None:
        """How near `fixture` is to code at (path, class): lower is nearer; None: invisible."""
        if fixture.class_name is not None:
            return 0 if fixture.class_name == class_name and fixture.path == path else None
        if fixture.directory is None:
            return 1 if fixture.path == path else None
        if not _ancestor(fixture.directory, path):
            return None
        return 2 + (1_000 - fixture.directory.count("/") - (1 if fixture.directory else 0))

    def visible(
        self, fixtures: Iterable[Fixture], path: str, class_name: str | None
    ) -> list[Fixture]:
        ranked = [
            (rank, f.qualified_name, f)
            for f in fixtures
            if (rank := self._rank(f, path, class_name)) is not None
        ]
        return [f for _rank, _qn, f in sorted(ranked, key=lambda item: (item[0], item[1]))]

    def resolve(
        self, name: str, path: str, class_name: str | None, exclude: str | None
    ) -> Fixture | None:
        candidates = [f for f in self.by_name.get(name, ()) if f.qualified_name != exclude]
        found = self.visible(candidates, path, class_name)
        return found[0] if found else None


def _seeds_of(test: TestUnit, fixtures: _Fixtures) -> list[Seed]:
    seeds: dict[str, Seed] = {}
    queue: list[tuple[str, str, str | None, str | None]] = [
        (name, test.path, test.class_name, None) for name in test.requests
    ]
    queue.extend(
        (f.name, test.path, test.class_name, None)
        for f in fixtures.visible(fixtures.autouse, test.path, test.class_name)
    )
    while queue:
        name, path, class_name, exclude = queue.pop(0)
        fixture = fixtures.resolve(name, path, class_name, exclude)
        if fixture is None or fixture.qualified_name in seeds:
            continue
        seeds[fixture.qualified_name] = Seed(
            fixture.path, fixture.qualified_name, f"fixture {name}"
        )
        for request in fixture.requests:
            own = fixture.qualified_name if request == fixture.name else None
            queue.append((request, fixture.path, fixture.class_name, own))
    for setup in test.setups:
        if setup not in seeds:
            seeds[setup] = Seed("", setup, f"setup {setup.rsplit('.', 1)[-1]}")
    for value in test.values:
        if value not in seeds:
            seeds[value] = Seed("", value, f"parameter {value.rsplit('.', 1)[-1]}")
    return list(seeds.values())


def seeds_of_tests(roles: Mapping[str, FileRoles]) -> dict[tuple[str, str], list[Seed]]:
    """(path, test qualified name) -> the fixtures and set-ups it runs. A set-up's `path` is
    "" when it may live in another file (an inherited `setUp`). A test method several classes
    of a file run (inherited, `TestUnit.case`) runs the seeds of each."""
    fixtures = _Fixtures(f for file in roles.values() for f in file.fixtures)
    found: dict[tuple[str, str], list[Seed]] = {}
    for file in roles.values():
        for test in file.tests:
            seeds = found.setdefault((test.path, test.qualified_name), [])
            seeds.extend(s for s in _seeds_of(test, fixtures) if s not in seeds)
    return found
