"""What a repository declares about itself for cross-repository links: the distributions it
depends on and the names it is published under, read from the project files each language
names (`Language.manifests`), and the top-level packages its modules provide
(`Language.packages`).

Two indexed repositories may provide the same top-level package (two versions of a library,
a fork): a caller's declared dependency is then the only honest way to choose between them
(`graph.crossrepo`). Names are normalised as PEP 503 does (`Billing_Lib` → `billing-lib`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..languages import Language, declarations, language_named
from ..languages.manifests import Declared, ManifestReader, declared
from ..model import ParsedFile
from ..parsing.regular import read_regular

__all__ = ["ProjectNames", "project_names", "provided_packages"]


@dataclass(frozen=True)
class ProjectNames:
    distributions: frozenset[str]  # the names this repository is published under
    dependencies: frozenset[str]  # the names it declares it needs


def _read(path: Path) -> str | None:
    try:
        # a FIFO named pyproject.toml must not block the run (issue 57, item 3)
        text = read_regular(path).decode("utf-8", errors="replace")
    except OSError:
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as read_text's newlines


def _go_mod(text: str) -> Declared:
    names: list[str] = []
    deps: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if line.startswith("module "):
            names.append(line.split()[1])
        elif line.startswith("require ("):
            inside = True
        elif inside and line == ")":
            inside = False
        elif inside and line:
            deps.append(line.split()[0])
        elif line.startswith("require "):
            deps.append(line.split()[1])
    return declared(names, deps)


# read before any plug-in claims it: a Go module's `go.mod` (its reader moves to the Go
# folder when one is added)
_UNCLAIMED: tuple[tuple[str, ManifestReader], ...] = (("go.mod", _go_mod),)


def _readers(root: Path) -> list[Language]:
    """The registered languages that read a manifest present at `root`, in the registry's
    order (the others' plug-ins stay unloaded: their readers would find nothing)."""
    return [
        language_named(declared.name)
        for declared in declarations()
        if any(next(iter(root.glob(pattern)), None) is not None for pattern in declared.manifests)
    ]


def project_names(root: Path, readers: Iterable[Language] | None = None) -> ProjectNames:
    """The distributions `root` is published as and depends on, from the project files at its
    top that any language (default: every registered one) reads, whichever languages a run
    indexes. Unreadable files count as absent."""
    manifests = dict(_UNCLAIMED)
    for language in _readers(root) if readers is None else readers:
        manifests.update(language.manifests)
    names: set[str] = set()
    deps: set[str] = set()
    for pattern, reader in manifests.items():
        for path in sorted(root.glob(pattern)):
            text = _read(path)
            if text is not None:
                found = reader(text)
                names |= found.names
                deps |= found.dependencies
    return ProjectNames(frozenset(names), frozenset(deps - names))


def provided_packages(parsed: Mapping[str, ParsedFile]) -> frozenset[str]:
    """The top-level packages a repository's modules provide to others, each language naming
    those of its own files."""
    by_language: dict[str, dict[str, str]] = defaultdict(dict)
    for path, file in parsed.items():
        by_language[file.language][path] = file.module
    return frozenset().union(
        *(language_named(name).packages(modules) for name, modules in by_language.items())
    )
