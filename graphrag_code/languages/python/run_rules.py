"""How Python code runs as a program and keeps a singleton (`RunRules`, read by
`impact.programs` and `impact.singletons`).

A program: a console or GUI script packaging metadata names (`projectfiles`), a
`__main__.py` (`python -m pkg` runs its top level), or a module's top-level
`if __name__ == "__main__":` block. A process starts through `subprocess`, `os` and
`asyncio`'s starters, or pexpect's. A singleton: a class method that keeps an instance on the
class (`cls._default = cls()`) and sets it up (`cls._default.setup()`), as sqlparse's
`Lexer.get_default_instance` does (BENCHMARKS §21, stop 66 part 3). A memo: a method that
stores another's result on `self` or `cls` (marshmallow's `RegexMemoizer`, stop 64).
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..run_rules import Members, RunRules
from .projectfiles import SCRIPT_REASONS, script_name

__all__ = [
    "PYTHON_RUN_RULES", "STARTERS", "main_blocks", "package_program", "singleton_setup",
    "stores_result",
]  # fmt: skip

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
_MAIN = "__main__"
_GUARD = re.compile(
    r"""^if\s+\(?\s*(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)"""
    r"""\s*\)?\s*:"""
)
_KEEPS = re.compile(r"^\s*cls\.(\w+)\s*=\s*(.*)$", re.MULTILINE)
_ON_SELF = re.compile(r"\bself\.(\w+)\(")


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


def package_program(module: str) -> tuple[str, str] | None:
    """(the package, "python -m pkg") for `pkg.__main__`, whose top level `python -m pkg`
    runs; None for another module."""
    package, _, last = module.rpartition(".")
    return (package, f"python -m {package}") if last == _MAIN and package else None


def singleton_setup(members: Members) -> dict[str, set[str]]:
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


def stores_result(code: str, name: str) -> bool:
    """Whether `code` stores what `self.<name>(...)` returns on the instance or its class
    (`self._memo[key] = self.<name>(...)`, `self.cached = self.<name>()`)."""
    pattern = rf"^\s*(?:self|cls)\.\w+(?:\[[^\]\n]*\])?\s*=\s*(?:self|cls)\.{re.escape(name)}\("
    return re.search(pattern, code, re.MULTILINE) is not None


PYTHON_RUN_RULES = RunRules(
    starters=STARTERS,
    script_reasons=SCRIPT_REASONS,
    script_name=script_name,
    main_marker=_MAIN,
    main_blocks=main_blocks,
    package_program=package_program,
    singleton_setup=singleton_setup,
    stores_result=stores_result,
)
