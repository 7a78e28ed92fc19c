"""What a repository declares about itself for cross-repository links: the distributions it
depends on and the names it is published under, read from its project files.

Two indexed repositories may provide the same top-level package (two versions of a library,
a fork): a caller's declared dependency is then the only honest way to choose between them
(`graph.crossrepo`). Names are normalised as PEP 503 does (`Billing_Lib` → `billing-lib`).
"""

from __future__ import annotations

import configparser
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["ProjectNames", "normalise", "project_names", "top_level_packages"]

_SEPARATORS = re.compile(r"[-_.]+")
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
# top-level names that are project layout, not something another repository imports
_NOT_PACKAGES = frozenset(
    {"tests", "test", "testing", "conftest", "setup", "docs", "doc", "examples", "example",
     "benchmarks", "scripts", "noxfile", "tasks", "__main__", ""}
)  # fmt: skip


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return _SEPARATORS.sub("-", name.strip()).lower()


@dataclass(frozen=True)
class ProjectNames:
    distributions: frozenset[str]  # the names this repository is published under
    dependencies: frozenset[str]  # the names it declares it needs


def _requirement(line: str) -> str | None:
    line = line.split("#", 1)[0].strip()
    if not line or line.startswith("-"):  # -r other.txt, -e ., --index-url …
        return None
    match = _REQUIREMENT.match(line)
    return normalise(match.group(1)) if match else None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _pyproject(text: str, names: set[str], deps: set[str]) -> None:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    project: dict[str, Any] = data.get("project") or {}
    if isinstance(project.get("name"), str):
        names.add(normalise(project["name"]))
    requirements = list(project.get("dependencies") or [])
    for extra in (project.get("optional-dependencies") or {}).values():
        requirements.extend(extra or [])
    deps.update(d for d in map(_requirement, map(str, requirements)) if d)
    poetry: dict[str, Any] = (data.get("tool") or {}).get("poetry") or {}
    if isinstance(poetry.get("name"), str):
        names.add(normalise(poetry["name"]))
    deps.update(normalise(name) for name in (poetry.get("dependencies") or {}) if name != "python")


def _setup_cfg(text: str, names: set[str], deps: set[str]) -> None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    if parser.has_option("metadata", "name"):
        names.add(normalise(parser.get("metadata", "name")))
    if parser.has_option("options", "install_requires"):
        lines = parser.get("options", "install_requires").splitlines()
        deps.update(d for d in map(_requirement, lines) if d)


def _package_json(text: str, names: set[str], deps: set[str]) -> None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return
    if not isinstance(data, dict):
        return
    if isinstance(data.get("name"), str):
        names.add(normalise(data["name"]))
    for key in ("dependencies", "devDependencies", "peerDependencies"):
        if isinstance(data.get(key), dict):
            deps.update(normalise(name) for name in data[key])


def _go_mod(text: str, names: set[str], deps: set[str]) -> None:
    inside = False
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if line.startswith("module "):
            names.add(normalise(line.split()[1]))
        elif line.startswith("require ("):
            inside = True
        elif inside and line == ")":
            inside = False
        elif inside and line:
            deps.add(normalise(line.split()[0]))
        elif line.startswith("require "):
            deps.add(normalise(line.split()[1]))


def project_names(root: Path) -> ProjectNames:
    """The distributions `root` is published as and depends on: `pyproject.toml`
    (`[project]`, Poetry), `requirements*.txt` (and `requirements/*.txt`), `setup.cfg`,
    `package.json`, `go.mod`, at the repository's top. Unreadable files count as absent."""
    names: set[str] = set()
    deps: set[str] = set()
    readers = {
        "pyproject.toml": _pyproject,
        "setup.cfg": _setup_cfg,
        "package.json": _package_json,
        "go.mod": _go_mod,
    }
    for filename, reader in readers.items():
        text = _read(root / filename)
        if text is not None:
            reader(text, names, deps)
    requirements = sorted(root.glob("requirements*.txt")) + sorted(root.glob("requirements/*.txt"))
    for path in requirements:
        text = _read(path)
        if text is not None:
            deps.update(d for d in map(_requirement, text.splitlines()) if d)
    return ProjectNames(frozenset(names), frozenset(deps - names))


def top_level_packages(modules: dict[str, str]) -> frozenset[str]:
    """The top-level Python packages a repository provides to others, from its files' module
    names (path -> module); test folders, `setup.py` and the like are left out."""
    tops: set[str] = set()
    for path, module in modules.items():
        top = module.split(".", 1)[0]
        first = path.split("/", 1)[0] if "/" in path else ""
        if top in _NOT_PACKAGES or first in {"tests", "test", "docs", "examples"}:
            continue
        tops.add(top)
    return frozenset(tops)
