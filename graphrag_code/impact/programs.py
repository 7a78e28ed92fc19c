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

A program is a console or GUI script packaging metadata names, a `__main__.py`, or a
module with an `if __name__ == "__main__":` block (the code that block calls); it is named
by the script's name or the module's dotted name as a string (`"pkg"`, `"-m", "pkg.cli"`),
or the module's path (`"pkg/cli.py"`). A test starting other programs (`git`, a server)
names none, and is not selected by this rule.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..graph import GraphReader
from ..graph.records import ProgramCall
from ..model import CERTAIN_TIERS

__all__ = ["PROCESS", "STARTERS", "main_blocks", "names_program", "process_tests", "programs"]

PROCESS = "process"  # the resolution of an edge from a test that runs its target in a child
_SUFFIXES = ("l", "le", "lp", "lpe", "v", "ve", "vp", "vpe")
_OS = ("system", "popen", "posix_spawn", "posix_spawnp",
       *(f"{kind}{suffix}" for kind in ("exec", "spawn") for suffix in _SUFFIXES))  # fmt: skip
# what starts a child process, as the linking names the call
STARTERS = (
    *(f"subprocess.{name}" for name in ("Popen", "run", "call", "check_call", "check_output",
                                        "getoutput", "getstatusoutput")),
    *(f"os.{name}" for name in _OS),
    "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
    "pexpect.spawn", "pexpect.run",
)  # fmt: skip
_GUARD = re.compile(
    r"""^if\s+\(?\s*(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)"""
    r"""\s*\)?\s*:"""
)


@dataclass(frozen=True)
class Program:
    """A way into the repository as a program: what a command names it by, and in words."""

    names: tuple[str, ...]
    label: str


def main_blocks(text: str) -> list[tuple[int, int]]:
    """The first and last line (1-based) of each top-level `if __name__ == "__main__":`
    block of a Python module's text."""
    lines = text.splitlines()
    blocks: list[tuple[int, int]] = []
    for index, line in enumerate(lines):
        if not _GUARD.match(line):
            continue
        end = index + 1
        for later in range(index + 1, len(lines)):
            body = lines[later]
            if not body.strip() or body.lstrip().startswith("#"):
                continue
            if body[0] not in " \t":
                break
            end = later + 1
        blocks.append((index + 1, end))
    return blocks


def programs(calls: Sequence[ProgramCall]) -> dict[str, Program]:
    """Entry node -> the program it starts (`GraphReader.program_entries`): a script's
    function, or what a module's main block (or a `__main__.py`'s top level) calls."""
    names: dict[str, list[str]] = defaultdict(list)
    labels: dict[str, str] = {}

    def add(node: str, found: Sequence[str], label: str) -> None:
        labels.setdefault(node, label)
        names[node].extend(name for name in found if name not in names[node])

    for call in calls:
        for reason in call.scripts:  # "console script tabulate (pyproject.toml)"
            words = reason.split()
            for node in call.ids if len(words) >= 3 else ():
                add(node, [words[2]], f"the script {words[2]}")
        if call.module is None or call.path is None:
            continue
        package, _, last = call.module.rpartition(".")
        if last == "__main__" and package:
            for node in call.ids:
                add(node, [package, call.path], f"python -m {package}")
            continue
        blocks = main_blocks(call.text or "")
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
    groups = reader.process_tests(targets, STARTERS) if targets else []
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for repo in sorted({group.repo for group in groups}):
        entries = programs(reader.program_entries(repo))
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
