"""The tests that read a singleton its class keeps: set up by the first test that asked.

A class that makes its one instance on first use and keeps it on the class
(`if cls._default is None: cls._default = cls(); cls._default.setup()`) runs the setup in
the first test that asks for the instance only; every later test reads what it set up
without running a line of it, so the coverage names one test for code that all the askers
depend on (sqlparse's `Lexer.default_initialization`, BENCHMARKS §21, stop 66 part 3: a
mutant of it failed 143 tests, three of which ran it). The class itself is made at import,
so what it keeps is shared by every test: the tests that ran the method that makes and
keeps the instance read what its setup did (the constructor, the methods it calls on the
kept instance, and the methods those call on `self`). How a class keeps and sets one up is
its language's (`RunRules.singleton_setup`: Python's `cls._x = cls()`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..graph import GraphReader
from .coverage import Freshness
from .programs import language_rules

__all__ = ["singleton_readers"]


def singleton_readers(
    reader: GraphReader, states: Mapping[str, Freshness]
) -> dict[str, tuple[str, ...]]:
    """Target -> the tests that ran a method keeping an instance of its class that the
    target sets up, for the targets whose coverage is known (fresh or outside)."""
    known = sorted(node for node, state in states.items() if state in ("fresh", "outside"))
    makers: dict[str, set[str]] = {}
    for node, (language, members) in (reader.class_members(known) if known else {}).items():
        name = next((n for m, n, _ in members if m == node), "")
        keeping = language_rules(language).singleton_setup(members).get(name, set()) - {node}
        if keeping:
            makers[node] = keeping
    if not makers:
        return {}
    ran = {into.id: into.tests for into in reader.ran_into(sorted(set().union(*makers.values())))}
    found = {
        node: tuple(sorted({t for m in keeping for t in ran.get(m, ())}))
        for node, keeping in makers.items()
    }
    return {node: tests for node, tests in found.items() if tests}
