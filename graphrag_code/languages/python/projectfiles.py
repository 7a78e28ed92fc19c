"""Reading the project files conventions care about: pytest's options and the entry points
declared by packaging metadata (`pyproject.toml`, `setup.cfg`, `pytest.ini`, `tox.ini`).

Pure: text in, records out; a file that cannot be read is reported, never raised.
"""

from __future__ import annotations

import configparser
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...model import ParseIssue

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "SCRIPT_REASONS", "PytestOptions", "declared_entry_points", "folder_of", "pytest_options",
    "script_name",
]  # fmt: skip

_DEFAULT_FILES = ("test_*.py", "*_test.py")
_ENTRY = re.compile(r"^\s*([\w.-]+)\s*=\s*([\w.]+)\s*:\s*([\w.]+)")
_REFERENCE = re.compile(r"^\s*([\w.]+)\s*:\s*([\w.]+)")
# how the reason of an entry point that is a script starts: "console script NAME (FILE)"
SCRIPT_REASONS = ("console script ", "gui script ")


@dataclass(frozen=True)
class PytestOptions:
    """pytest's collection options of the project rooted at `directory` ("" the root)."""

    directory: str = ""
    testpaths: tuple[str, ...] = ()
    python_files: tuple[str, ...] = _DEFAULT_FILES
    python_classes: tuple[str, ...] = ("Test",)
    python_functions: tuple[str, ...] = ("test",)


def folder_of(path: str) -> str:
    return path.rpartition("/")[0]


def _words(value: Any) -> tuple[str, ...]:
    """An ini option (whitespace-separated) or a TOML string or list, as words."""
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(word for item in value if isinstance(item, str) for word in item.split())
    return ()


def _options(directory: str, table: Mapping[str, Any]) -> PytestOptions:
    default = PytestOptions()
    return PytestOptions(
        directory=directory,
        testpaths=_words(table.get("testpaths")),
        python_files=_words(table.get("python_files")) or default.python_files,
        python_classes=_words(table.get("python_classes")) or default.python_classes,
        python_functions=_words(table.get("python_functions")) or default.python_functions,
    )


def _ini(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    return parser


def _toml(text: str) -> dict[str, Any]:
    parsed: dict[str, Any] = tomllib.loads(text)
    return parsed


def _table(parent: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = parent.get(key)
    return value if isinstance(value, dict) else {}


def _read(path: str, text: str, issues: dict[str, list[ParseIssue]]) -> Any:
    """The parsed file (a dict for TOML, a ConfigParser for ini files), None if unreadable."""
    try:
        return _toml(text) if path.endswith(".toml") else _ini(text)
    except (tomllib.TOMLDecodeError, configparser.Error) as error:
        issues.setdefault(path, []).append(ParseIssue(1, f"unreadable: {error}"[:300]))
        return None


# pytest reads the first of these that holds its options (pytest.ini even when empty)
_PRECEDENCE = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
_INI_SECTION = {"pytest.ini": "pytest", ".pytest.ini": "pytest", "tox.ini": "pytest"}


def pytest_options(
    project: Mapping[str, str], issues: dict[str, list[ParseIssue]]
) -> dict[str, PytestOptions]:
    """Folder -> the pytest options a config file in that folder declares."""
    found: dict[str, tuple[int, PytestOptions]] = {}
    for path, text in project.items():
        name = path.rpartition("/")[2]
        if name not in _PRECEDENCE:
            continue
        parsed = _read(path, text, issues)
        table: Mapping[str, Any] | None = None
        if isinstance(parsed, dict):
            tool = parsed.get("tool")
            pytest = tool.get("pytest") if isinstance(tool, dict) else None
            ini = pytest.get("ini_options") if isinstance(pytest, dict) else None
            table = ini if isinstance(ini, dict) else None
        elif isinstance(parsed, configparser.ConfigParser):
            section = _INI_SECTION.get(name, "tool:pytest")
            if parsed.has_section(section):
                table = dict(parsed.items(section))
            elif name in ("pytest.ini", ".pytest.ini"):
                table = {}
        if table is None:
            continue
        folder = folder_of(path)
        rank = _PRECEDENCE.index(name)
        if folder not in found or rank < found[folder][0]:
            found[folder] = (rank, _options(folder, table))
    return {folder: options for folder, (_rank, options) in found.items()}


def _entries_from_table(table: Any, group: str, source: str) -> Iterable[tuple[str, str]]:
    if not isinstance(table, dict):
        return
    for name, value in table.items():
        reference = value.get("reference") if isinstance(value, dict) else value
        if isinstance(value, dict) and "callable" in value:
            reference = f"{value.get('reference', '')}:{value['callable']}"
        match = _REFERENCE.match(reference) if isinstance(reference, str) else None
        if match:
            yield f"{match.group(1)}.{match.group(2)}", f"{group} {name} ({source})"


def script_name(reason: str) -> str | None:
    """The command an entry point reason names a script by (`declared_entry_points`:
    "console script tabulate (pyproject.toml)" -> "tabulate"); None for another entry
    point."""
    words = reason.split()
    return words[2] if reason.startswith(SCRIPT_REASONS) and len(words) >= 3 else None


def declared_entry_points(
    project: Mapping[str, str], issues: dict[str, list[ParseIssue]]
) -> dict[str, str]:
    """Qualified name -> reason, for every object packaging metadata names as an entry
    point: `[project.scripts]`, `[project.gui-scripts]`, `[project.entry-points.*]`,
    `[tool.poetry.scripts]` / `plugins`, and setup.cfg's `[options.entry_points]`."""
    found: dict[str, str] = {}
    for path, text in sorted(project.items()):
        name = path.rpartition("/")[2]
        if name == "pyproject.toml":
            parsed = _read(path, text, issues)
            if not isinstance(parsed, dict):
                continue
            meta = _table(parsed, "project")
            for key, group in (("scripts", "console script"), ("gui-scripts", "gui script")):
                found.update(_entries_from_table(meta.get(key), group, path))
            groups = meta.get("entry-points")
            if isinstance(groups, dict):
                for group, table in groups.items():
                    found.update(_entries_from_table(table, f"entry point {group}", path))
            poetry = _table(_table(parsed, "tool"), "poetry")
            found.update(_entries_from_table(poetry.get("scripts"), "console script", path))
            plugins = poetry.get("plugins")
            if isinstance(plugins, dict):
                for group, table in plugins.items():
                    found.update(_entries_from_table(table, f"entry point {group}", path))
        elif name == "setup.cfg":
            parsed = _read(path, text, issues)
            if not isinstance(parsed, configparser.ConfigParser):
                continue
            if not parsed.has_section("options.entry_points"):
                continue
            for group, value in parsed.items("options.entry_points"):
                label = "console script" if group == "console_scripts" else f"entry point {group}"
                for line in value.splitlines():
                    match = _ENTRY.match(line)
                    if match:
                        found[f"{match.group(2)}.{match.group(3)}"] = (
                            f"{label} {match.group(1)} ({path})"
                        )
    return found
