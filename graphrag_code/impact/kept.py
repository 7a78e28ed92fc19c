"""The tests that read what changed code kept: what per-test coverage cannot attribute.

Coverage says which test ran a function, not which test read what the function left behind
when it ran before that test: at import or collection (a registry a decorator fills, a
default built once, a class a factory makes) or in an earlier test (a memo on an object made
at import). On the mutant benchmark (BENCHMARKS §21) every mutant whose failing tests the
coverage missed was such code. Two rules, from that evidence (a third, for a singleton its
class keeps and the first test that asked set up, is `impact.singletons`; the tests whose
import runs code that ran at import, which an error there fails, are `impact.import_failures`,
stop 67):

- code that ran outside every test keeps what it made in its module, or in the module that
  called it at import: the tests that ran any code of its own module, or of a module whose
  module-level or class-body code calls it (or its class, for a constructor), read it —
  save code that ran outside every test and in every test, the test runner's own (pytest
  runs pluggy's hooks around each test): that every test ran it says nothing of which tests
  read the module (stop 65, found on pluggy: BENCHMARKS §21); since stop 65, part 3, also
  through callers that ran outside every test themselves, and read by every test of a test
  module whose collection called it (`parametrize` values) or that imports a package whose
  `__init__` called it (an error there fails the import: toolz, isodate);
- a method whose result another method of its class stores on the instance
  (`self._memo[key] = self._make(...)`; its language's `RunRules.stores_result` reads it),
  where the class has an instance made outside every test: the tests that ran that other
  method read the memo the first test filled.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from ..graph import GraphReader
from ..graph.records import KeptCode
from ..model import CERTAIN_TIERS
from .coverage import Freshness
from .programs import language_rules
from .singletons import singleton_readers

__all__ = ["KEPT", "kept_state_tests", "module_readers"]

KEPT = "kept"  # the resolution of an edge from a test that read what the target kept


def module_readers(code: Sequence[KeptCode]) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Node -> (the modules that may read what it kept, the tests that ran their code),
    leaving out code that ran outside every test and in every test of the suite: the test
    runner's (or an autouse fixture's) code around each test, which a test runs whatever it
    reads."""
    modules: dict[str, set[str]] = defaultdict(set)
    tests: dict[str, set[str]] = defaultdict(set)
    for row in code:
        runner = row.outside and row.suite > 0 and len(row.tests) >= row.suite
        for node in row.ids:
            modules[node].add(row.module)
            if not runner:
                tests[node].update(row.tests)
    return {node: (tuple(sorted(modules[node])), tuple(sorted(tests[node]))) for node in modules}


def kept_state_tests(
    reader: GraphReader, states: Mapping[str, Freshness]
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Target -> (why, in words; the tests that read what it kept), for the targets whose
    coverage is known (`states`: fresh or outside; changed and new code is predicted
    statically) and the rules above apply to."""
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    outside = sorted(node for node, state in states.items() if state == "outside")
    if outside:
        readers = module_readers(reader.kept_state_code(outside, certain=CERTAIN_TIERS))
        for node, (modules, tests) in readers.items():
            if tests:
                shown = ", ".join(modules[:3]) + (", …" if len(modules) > 3 else "")
                found[node] = (f"ran code of {shown}, which keeps what it made at import", tests)
    known = sorted(node for node, state in states.items() if state in ("fresh", "outside"))
    memo: dict[str, set[str]] = {}
    for node, name, member, code, language in reader.shared_members(known) if known else []:
        if language_rules(language).stores_result(code, name):
            memo.setdefault(node, set()).add(member)
    if memo:
        ran = {into.id: into.tests for into in reader.ran_into(sorted(set().union(*memo.values())))}
        for node, members in memo.items():
            tests = tuple(sorted({t for m in members for t in ran.get(m, ())}))
            if tests:
                why, before = found.get(node, ("", ()))
                merged = tuple(sorted({*before, *tests}))
                found[node] = (
                    why or "ran a method that keeps its result on a shared object",
                    merged,
                )
    for node, tests in singleton_readers(reader, states).items():
        why, before = found.get(node, ("", ()))
        found[node] = (
            why or "asked for the instance its class keeps, which it sets up",
            tuple(sorted({*before, *tests})),
        )
    return found
