"""What a Python project declares for cross-repository links (`pyproject.toml`: `[project]`
and Poetry; `setup.cfg`; `requirements*.txt` and `requirements/*.txt`), and the top-level
packages its modules provide to other repositories."""

from __future__ import annotations

import configparser
import re
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from ..manifests import Declared, ManifestReader, declared

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["PYTHON_MANIFESTS", "top_level_packages"]

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
# top-level names that are project layout, not something another repository imports
_NOT_PACKAGES = frozenset(
    {"tests", "test", "testing", "conftest", "setup", "docs", "doc", "examples", "example",
     "benchmarks", "scripts", "noxfile", "tasks", "__main__", ""}
)  # fmt: skip
_NOT_PACKAGE_FOLDERS = frozenset({"tests", "test", "docs", "examples"})


def _requirements(lines: Iterable[str]) -> list[str]:
    """The distribution names of requirement lines (`-r other.txt`, `-e .`, options and
    comments name none)."""
    found = []
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        match = _REQUIREMENT.match(line)
        if match:
            found.append(match.group(1))
    return found


def _pyproject(text: str) -> Declared:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return Declared()
    names: list[str] = []
    project: dict[str, Any] = data.get("project") or {}
    if isinstance(project.get("name"), str):
        names.append(project["name"])
    requirements = list(project.get("dependencies") or [])
    for extra in (project.get("optional-dependencies") or {}).values():
        requirements.extend(extra or [])
    deps = _requirements(map(str, requirements))
    poetry: dict[str, Any] = (data.get("tool") or {}).get("poetry") or {}
    if isinstance(poetry.get("name"), str):
        names.append(poetry["name"])
    # Poetry lists the interpreter it needs among the dependencies
    deps.extend(name for name in (poetry.get("dependencies") or {}) if name != "python")
    return declared(names, deps)


def _setup_cfg(text: str) -> Declared:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return Declared()
    names = [parser.get("metadata", "name")] if parser.has_option("metadata", "name") else []
    deps: list[str] = []
    if parser.has_option("options", "install_requires"):
        deps = _requirements(parser.get("options", "install_requires").splitlines())
    return declared(names, deps)


def _requirements_txt(text: str) -> Declared:
    return declared((), _requirements(text.splitlines()))


PYTHON_MANIFESTS: tuple[tuple[str, ManifestReader], ...] = (
    ("pyproject.toml", _pyproject),
    ("setup.cfg", _setup_cfg),
    ("requirements*.txt", _requirements_txt),
    ("requirements/*.txt", _requirements_txt),
)
"""Glob patterns below the repository's top -> the reader of each file they match."""


def top_level_packages(modules: Mapping[str, str]) -> frozenset[str]:
    """The top-level packages a repository provides to others, from its files' module names
    (path -> module); test folders, `setup.py` and the like are left out."""
    tops: set[str] = set()
    for path, module in modules.items():
        top = module.split(".", 1)[0]
        first = path.split("/", 1)[0] if "/" in path else ""
        if top in _NOT_PACKAGES or first in _NOT_PACKAGE_FOLDERS:
            continue
        tops.add(top)
    return frozenset(tops)
