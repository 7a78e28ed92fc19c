"""The tests that read a singleton its class keeps: set up by the first test that asked.

A class that makes its one instance on first use and keeps it on the class
(`if cls._default is None: cls._default = cls(); cls._default.setup()`) runs the setup in
the first test that asks for the instance only; every later test reads what it set up
without running a line of it, so the coverage names one test for code that all the askers
depend on (sqlparse's `Lexer.default_initialization`, BENCHMARKS §21, stop 66 part 3: a
mutant of it failed 143 tests, three of which ran it). The class itself is made at import,
so what it keeps is shared by every test: the tests that ran the method that makes and
keeps the instance read what its setup did (the constructor, the methods it calls on the
kept instance, and the methods those call on `self`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from ..graph import GraphReader
from .coverage import Freshness

__all__ = ["singleton_readers", "singleton_setup"]

_KEEPS = re.compile(r"^\s*cls\.(\w+)\s*=\s*(.*)$", re.MULTILINE)
_ON_SELF = re.compile(r"\bself\.(\w+)\(")


def singleton_setup(members: Sequence[tuple[str, str, str]]) -> dict[str, set[str]]:
    """Method name -> the members (ids) that keep an instance on the class and set it up
    through that method (`members`: a class's methods, (id, name, code) each)."""
    codes = {name: code for _, name, code in members}
    found: dict[str, set[str]] = defaultdict(set)
    for member, _, code in members:
        for keeps in _KEEPS.finditer(code):
            kept, value = keeps.group(1), keeps.group(2)
            names = set(re.findall(rf"\bcls\.{kept}\.(\w+)\(", code))
            if value.startswith("cls("):
                names.add("__init__")
            todo = list(names)
            while todo:  # what the setup calls on `self` ran only when it did
                for called in _ON_SELF.findall(codes.get(todo.pop(), "")):
                    if called in codes and called not in names:
                        names.add(called)
                        todo.append(called)
            for name in names & codes.keys():
                found[name].add(member)
    return found


def singleton_readers(
    reader: GraphReader, states: Mapping[str, Freshness]
) -> dict[str, tuple[str, ...]]:
    """Target -> the tests that ran a method keeping an instance of its class that the
    target sets up, for the targets whose coverage is known (fresh or outside)."""
    known = sorted(node for node, state in states.items() if state in ("fresh", "outside"))
    makers: dict[str, set[str]] = {}
    for node, members in (reader.class_members(known) if known else {}).items():
        name = next((n for m, n, _ in members if m == node), "")
        keeping = singleton_setup(members).get(name, set()) - {node}
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
