"""The tests that run changed code in a child process: what neither per-test coverage nor
the reach graph sees.

A test that starts the package as a program (`subprocess.run([sys.executable,
"pkg/cli.py"])`, `python -m pkg`, a console script) runs its code in another process: the
coverage of the test records the call that started it and no line of the program (the
child is not measured, or not under the test's context), and the reach graph ends at
`subprocess.Popen`. On the mutant benchmark (BENCHMARKS §21, stop 66) every failing test
the selection missed on tabulate was such a test: its seven command-line tests run
`tabulate/__init__.py`, whose `if __name__ == "__main__":` block calls `_main`, and every
mutant `_main` reaches failed them. The rule: a test that starts a child process, where
its module or the code starting the process names a program of the repository, is a test
of the code that program's entry reaches through certain chains (or of the entry itself).

What a program is and what starts a process are each language's (`Language.run_rules`:
for Python a console or GUI script packaging metadata names, a `__main__.py`, or a module
with an `if __name__ == "__main__":` block, the code that block calls). A program is named
by the script's name or the module's dotted name as a string (`"pkg"`, `"-m", "pkg.cli"`),
or the module's path (`"pkg/cli.py"`). A test starting other programs (`git`, a server)
names none, and is not selected by this rule.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ConfigurationError
from ..graph import GraphReader
from ..graph.records import ProgramCall
from ..languages import language_named, languages, routes
from ..languages.run_rules import RunRules
from ..model import CERTAIN_TIERS

__all__ = [
    "PROCESS", "language_rules", "names_program", "process_tests", "programs", "run_rules",
    "starters",
]  # fmt: skip

PROCESS = "process"  # the resolution of an edge from a test that runs its target in a child


@dataclass(frozen=True)
class Program:
    """A way into the repository as a program: what a command names it by, and in words."""

    names: tuple[str, ...]
    label: str


def run_rules() -> tuple[RunRules, ...]:
    """Every language's ways into its code as a program (`Language.run_rules`)."""
    return tuple(language.run_rules for language in languages())


def starters() -> tuple[str, ...]:
    """The calls that start a child process, in every language, as the linking names them."""
    return tuple(sorted({name for rules in run_rules() for name in rules.starters}))


def language_rules(language: str) -> RunRules:
    """The `RunRules` of the language of a node (its `language` property); none of a
    language this process does not read."""
    try:
        return language_named(language).run_rules
    except ConfigurationError:
        return RunRules()


def _rules_of(path: str) -> RunRules | None:
    name = routes().suffixes.get(os.path.splitext(path)[1])
    return language_rules(name) if name else None


def programs(calls: Sequence[ProgramCall]) -> dict[str, Program]:
    """Entry node -> the program it starts (`GraphReader.program_entries`): a script's
    function, or what a module's program block (or a package's program module) calls."""
    names: dict[str, list[str]] = defaultdict(list)
    labels: dict[str, str] = {}
    every = run_rules()

    def add(node: str, found: Sequence[str], label: str) -> None:
        labels.setdefault(node, label)
        names[node].extend(name for name in found if name not in names[node])

    for call in calls:
        for reason in call.scripts:
            script = next((n for rules in every if (n := rules.script_name(reason))), "")
            for node in call.ids if script else ():
                add(node, [script], f"the script {script}")
        rules = _rules_of(call.path) if call.path is not None else None
        if call.module is None or call.path is None or rules is None:
            continue
        runs = rules.package_program(call.module)
        if runs is not None:
            for node in call.ids:
                add(node, [runs[0], call.path], runs[1])
            continue
        blocks = rules.main_blocks(call.text or "")
        for node, lines in zip(call.ids, call.lines, strict=False):
            if any(a <= line <= b for a, b in blocks for line in lines):
                add(node, [call.module, call.path], call.path)
    return {node: Program(tuple(found), labels[node]) for node, found in names.items()}


def names_program(text: str, names: Sequence[str]) -> bool:
    """Whether `text` names a program by one of `names`: a path anywhere (`pkg/cli.py`),
    a script or module name as a whole string or a string's first word (`"pkg"`,
    `"pkg.cli --help"`)."""
    for name in names:
        if name.endswith(".py"):
            if name in text or _tail_named(text, name):
                return True
        elif re.search(rf"""['"]{re.escape(name)}(?=['"\s])""", text):
            return True
    return False


def _tail_named(text: str, path: str) -> bool:
    """A path named without its source folder (`pkg/cli.py` for `src/pkg/cli.py`)."""
    parts = path.split("/")
    return any("/".join(parts[i:]) in text for i in range(1, len(parts) - 1))


def process_tests(
    reader: GraphReader, targets: Sequence[str]
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Target -> (why, in words; the tests that may run it in a child process): the tests
    that start a process naming a program of the target's repository whose entry is the
    target or reaches it through certain chains."""
    groups = reader.process_tests(targets, starters()) if targets else []
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for repo in sorted({group.repo for group in groups}):
        every = run_rules()
        entries = programs(
            reader.program_entries(
                repo,
                scripts=sorted({start for rules in every for start in rules.script_reasons}),
                markers=sorted({rules.main_marker for rules in every if rules.main_marker}),
            )
        )
        if not entries:
            continue
        reached = reader.reached_from(targets, sorted(entries), resolutions=CERTAIN_TIERS)
        starting: dict[str, set[str]] = {}  # entry -> the tests naming its program
        for entry, program in entries.items():
            starting[entry] = {
                test
                for group in groups
                if group.repo == repo
                and any(names_program(text, program.names) for text in (group.text, *group.codes))
                for test in group.tests
            }
        for target in targets:
            ways = sorted({*reached.get(target, ()), *({target} & entries.keys())})
            tests = {test for entry in ways for test in starting.get(entry, ())}
            if tests:
                shown = sorted({entries[entry].label for entry in ways if starting.get(entry)})
                why = "starts " + ", ".join(shown[:2]) + (", …" if len(shown) > 2 else "")
                before = found.get(target, ("", ()))[1]
                found[target] = (why, tuple(sorted({*before, *tests})))
    return found
