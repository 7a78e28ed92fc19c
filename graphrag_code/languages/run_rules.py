"""How a language's code runs where neither per-test coverage nor the reach graph sees it:
as a program in a child process a test starts (`impact.programs`), and through an instance
a class keeps for every later caller (`impact.singletons`) or a result a method keeps on its
object (`impact.kept`). `diff` reads these facts through
the registry (`Language.run_rules`); a language without them leaves the defaults, which find
nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "Members", "RunRules", "no_blocks", "no_package_program", "no_script", "no_setup",
    "stores_nothing",
]  # fmt: skip

Members = Sequence[tuple[str, str, str]]
"""A class's methods: (id, name, code) each."""


def no_blocks(text: str) -> list[tuple[int, int]]:
    """No block of a module runs only when the module runs as a program."""
    return []


def no_script(reason: str) -> str | None:
    """No entry point reason names a script."""
    return None


def no_package_program(module: str) -> tuple[str, str] | None:
    """No module runs its package as a program."""
    return None


def no_setup(members: Members) -> dict[str, set[str]]:
    """No class keeps an instance for every later caller."""
    return {}


def stores_nothing(code: str, name: str) -> bool:
    """No method keeps another's result on its object."""
    return False


@dataclass(frozen=True)
class RunRules:
    """A language's ways into its code as a program, and its singletons' setup."""

    # the calls that start a child process, as the linking names them (`subprocess.run`)
    starters: tuple[str, ...] = ()
    # the starts of the entry point reasons (stored on a node) that name it a script
    script_reasons: tuple[str, ...] = ()
    # such a reason -> the script's name, the command that starts it
    script_name: Callable[[str], str | None] = field(default=no_script)
    # what a module's text holds, or its name is, where it can run as a program
    main_marker: str | None = None
    # a module's text -> the first and last lines (from 1) of its blocks that run only when
    # it runs as a program
    main_blocks: Callable[[str], list[tuple[int, int]]] = field(default=no_blocks)
    # a module's qualified name -> (the name a command runs it by, in words) where its top
    # level is the program of its package
    package_program: Callable[[str], tuple[str, str] | None] = field(default=no_package_program)
    # a class's methods -> method name -> the members that keep an instance on the class
    # and set it up through that method (what every later caller of those members reads)
    singleton_setup: Callable[[Members], dict[str, set[str]]] = field(default=no_setup)
    # (a method's code, another method's name) -> whether the code keeps what that method
    # returns on the instance or its class (a memo every later caller reads)
    stores_result: Callable[[str, str], bool] = field(default=stores_nothing)
