"""Tests only a coverage run names: pytest items its contexts name that are no test of the
graph, because the index reads no file of theirs — the doctests of a text file that pytest
collects (`--doctest-glob=*.md`: voluptuous runs those of a Markdown file beside its tests,
and one of them failed for 15 of its 71 killed mutants, which no selection from the graph
could hold). Each becomes a test node of the repository at import (`coverage_test`), named
by its runner id, so that RAN edges hold it and the tests to run list it where it ran the
change; the next import replaces them, and a re-index keeps them (no file of the index
holds them). Only where the run's contexts name some test of the graph too: a run none of
whose contexts does was recorded elsewhere, and its import fails with a hint
(`import_coverage`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["UnindexedTest", "unindexed_tests"]


@dataclass(frozen=True)
class UnindexedTest:
    """A test the coverage names and the index does not know."""

    id: str  # its node's id: `<repo>:coverage:<runner id>`
    runner: str  # pytest's node id, parameters dropped: `pkg/tests/tests.md::tests.md`
    path: str  # the file pytest collected it from
    name: str  # its name in that file

    def row(self) -> dict[str, str]:
        """Its node's properties, as `CoverageStore.replace_unindexed` writes them."""
        return {"id": self.id, "runner": self.runner, "path": self.path, "name": self.name}


def unindexed_tests(repo: str, unknown: Iterable[str]) -> list[UnindexedTest]:
    """The tests to add for the runner ids of contexts that name no test of the graph
    (`Covered.unknown`): those that are pytest node ids (`file::name`); a qualified name
    (coverage's own `test_function` contexts) names no file to run, and is left out."""
    found = []
    for runner in sorted(set(unknown)):
        path, sep, name = runner.partition("::")
        if sep and path and name:
            found.append(UnindexedTest(f"{repo}:coverage:{runner}", runner, path, name))
    return found
