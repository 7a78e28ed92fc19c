"""The tests that run changed code in a child process (`impact.programs`): a test starting
the package as a program is a test of what the program's entry reaches, which neither its
coverage nor the reach graph sees. Offline, on a reader that answers from tables (the mutant
benchmark's misses on tabulate, BENCHMARKS §21, stop 66)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from graphrag_code.graph import GraphReader
from graphrag_code.graph.records import ProcessTests, ProgramCall, RanInto
from graphrag_code.impact.programs import names_program, process_tests, programs
from graphrag_code.impact.tests import exercising_tests
from graphrag_code.languages.python.run_rules import main_blocks

from .impact_fakes import TableReader

_MODULE = """import sys


def _main():
    run()


def run():
    pass


_main_helper = run()

if __name__ == "__main__":
    # the command line
    _main()

    sys.exit(0)
after = run()
"""
_CLI_TEST = 'def test_cli():\n    out = run_and_capture([sys.executable, "pkg/__init__.py"])\n'
_GIT_TEST = 'def test_git():\n    subprocess.run(["git", "status"])\n'


class _Reader(TableReader):
    """What `exercising_tests` reads, with the process rule's tables: the tests that ran
    each node, the test modules starting a process, the programs, and what they reach."""

    def __init__(
        self,
        *,
        ran: Sequence[RanInto] = (),
        groups: Sequence[ProcessTests] = (),
        entries: Sequence[ProgramCall] = (),
        reached: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        super().__init__(ran=ran)
        self.groups, self.entries = list(groups), list(entries)
        self.reached = reached or {}
        self.asked_entries = 0

    def process_tests(self, ids: Sequence[str], starters: Sequence[str]) -> list[ProcessTests]:
        assert {"subprocess.Popen", "os.system"} <= set(starters)
        return self.groups

    def program_entries(
        self, repo: str, *, scripts: Sequence[str], markers: Sequence[str]
    ) -> list[ProgramCall]:
        assert "console script " in scripts  # Python's, from the registry
        assert "__main__" in markers
        self.asked_entries += 1
        return self.entries

    def reached_from(
        self, ids: Sequence[str], entries: Sequence[str], *, resolutions: Sequence[str]
    ) -> dict[str, tuple[str, ...]]:
        assert set(resolutions) == {"exact", "inferred"}  # certain chains only
        return {i: tuple(e for e in self.reached.get(i, ()) if e in entries) for i in ids}


def _script(node: str = "main") -> ProgramCall:
    return ProgramCall((node,), ("console script pkg (pyproject.toml)",))


def _guard(node: str = "main") -> ProgramCall:
    """`pkg/__init__.py`'s main block calls `node` (line 16 of `_MODULE`)."""
    return ProgramCall((node,), (), "pkg", "pkg/__init__.py", _MODULE, ((16,),))


def test_the_main_block_is_the_top_level_if_and_its_indented_body() -> None:
    assert main_blocks(_MODULE) == [(14, 18)]  # the comment and blank line inside it kept
    assert main_blocks("if __name__ == '__main__': main()\n") == [(1, 1)]
    assert main_blocks("if '__main__' == __name__:\n    main()\n") == [(1, 2)]
    assert main_blocks("def f():\n    if __name__ == '__main__':\n        g()\n") == []
    assert main_blocks("if __name__ == '__mainly__':\n    main()\n") == []


def test_programs_are_scripts_main_blocks_and_main_modules() -> None:
    # a module's top level calls `run` at import (line 12) and `_main` in its main block
    guard = ProgramCall(
        ("_main", "run", "run_after"), (), "pkg", "pkg/__init__.py", _MODULE, ((16,), (12,), (19,))
    )
    main_py = ProgramCall(("cli",), (), "pkg.__main__", "pkg/__main__.py", "cli()\n", ((1,),))
    found = programs([_script("_main"), guard, main_py])
    assert sorted(found) == ["_main", "cli"]  # not what the top level calls at import
    assert found["_main"].names == ("pkg", "pkg/__init__.py")
    assert found["_main"].label == "the script pkg"
    assert found["cli"].names == ("pkg", "pkg/__main__.py")
    assert found["cli"].label == "python -m pkg"


def test_a_command_names_its_program_by_path_module_or_script() -> None:
    names = ("pkg.cli", "src/pkg/cli.py")
    assert names_program('[sys.executable, "src/pkg/cli.py"]', names)
    assert names_program('os.path.join(root, "pkg/cli.py")', names)  # without its source folder
    assert names_program('[sys.executable, "-m", "pkg.cli", "--help"]', names)
    assert names_program("os.system('pkg.cli --version')", names)
    assert names_program('["tabulate", "-f", "grid"]', ("tabulate",))
    assert not names_program('["pkg.client"]', names)  # another module
    assert not names_program('subprocess.run(["git", "status"])', names)
    assert not names_program("import pkg.cli", names)  # not a command's string


def test_tests_starting_the_program_are_tests_of_what_its_entry_reaches() -> None:
    # tabulate: seven tests run `python tabulate/__init__.py`, whose main block calls
    # `_main`; `_format` (reached from `_main` through certain calls) and `_main` itself
    # select them, code the program does not reach does not; a test starting `git` never
    reader = _Reader(
        groups=[
            ProcessTests("r", "r:test.test_cli", _CLI_TEST, ("t_cli",), ("subprocess.Popen(cmd)",)),
            ProcessTests("r", "r:test.test_git", _GIT_TEST, ("t_git",), ()),
        ],
        entries=[_script("main"), _guard("main")],
        reached={"format": ("main",)},
    )
    found = process_tests(cast(GraphReader, reader), ["format", "main", "unreached"])
    assert found == {
        "format": ("starts the script pkg", ("t_cli",)),
        "main": ("starts the script pkg", ("t_cli",)),
    }


def test_no_test_starting_a_process_asks_for_nothing_more() -> None:
    reader = _Reader(entries=[_script("main")], reached={"format": ("main",)})
    assert process_tests(cast(GraphReader, reader), ["format"]) == {}
    assert reader.asked_entries == 0  # the usual case costs one read


def test_a_test_running_the_program_is_to_run_beside_the_tests_that_ran_the_code() -> None:
    # `format`'s coverage is fresh: the tests that ran it in-process, and the test starting
    # the program that reaches it, whose coverage holds no line of it; not an extra
    reader = _Reader(
        ran=[RanInto("format", ("t_ran",), "h", "h")],
        groups=[ProcessTests("r", "r:test.test_cli", _CLI_TEST, ("t_cli",), ())],
        entries=[_guard("main")],
        reached={"format": ("main",)},
    )
    found, _, _ = exercising_tests(cast(GraphReader, reader), {"format": ("pkg.format",)})
    assert [(t.id, t.ran, t.extra) for t in found] == [
        ("t_ran", True, False), ("t_cli", False, False),
    ]  # fmt: skip
    assert found[1].reason == (
        "may run it in a child process (starts pkg/__init__.py; coverage records none)"
    )
    assert found[1].certain
