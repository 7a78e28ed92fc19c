"""One `Language` entry per language: its files, its parser and its linker."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from ..errors import ConfigurationError
from ..linking.base import Linker
from ..model import SourceFile
from ..parsing import ModuleName
from .base import Language
from .ecmascript.plugin import JAVASCRIPT, TYPESCRIPT
from .python.plugin import PYTHON

__all__ = [
    "LANGUAGES", "Language", "Linker", "interpreter_map", "language_named", "module_names",
    "project_file_names", "select_languages", "suffix_map",
]  # fmt: skip

LANGUAGES: tuple[Language, ...] = (PYTHON, TYPESCRIPT, JAVASCRIPT)
"""Every supported language. Adding one: a folder beside `python/` whose `plugin.py` declares
its `Language`, and its name here."""


def language_named(name: str) -> Language:
    for language in LANGUAGES:
        if language.name == name:
            return language
    raise ConfigurationError(f"unknown language {name!r}")


def select_languages(names: Iterable[str] | None) -> tuple[Language, ...]:
    """The languages a run reads: all of them for None, else those named (`py`, `ts`, …)."""
    if names is None:
        return LANGUAGES
    wanted = {name.strip().lower() for name in names if name.strip()}
    chosen = [lang for lang in LANGUAGES if wanted & {lang.name, *lang.aliases}]
    known = {alias for lang in LANGUAGES for alias in (lang.name, *lang.aliases)}
    unknown = sorted(wanted - known)
    if unknown or not chosen:
        raise ConfigurationError(
            f"unknown language(s) {', '.join(unknown) or '(none given)'}: choose from "
            + ", ".join(f"{lang.name} ({', '.join(lang.aliases)})" for lang in LANGUAGES)
        )
    return tuple(chosen)


def suffix_map(languages: Iterable[Language]) -> dict[str, str]:
    return {suffix: lang.name for lang in languages for suffix in lang.suffixes}


def interpreter_map(languages: Iterable[Language]) -> dict[str, str]:
    return {program: lang.name for lang in languages for program in lang.interpreters}


def project_file_names(languages: Iterable[Language]) -> frozenset[str]:
    """Names of the project files the languages' linkers and conventions read."""
    return frozenset(
        name
        for lang in languages
        for name in lang.linker.project_files | lang.conventions.project_files
    )


def module_names(
    sources: Mapping[str, SourceFile], imported: frozenset[str], *, root_name: str | None
) -> dict[str, ModuleName]:
    """The module name of every source file, each by its own language's scheme."""
    by_language: dict[str, list[str]] = defaultdict(list)
    for path, source in sources.items():
        by_language[source.language].append(path)
    names: dict[str, ModuleName] = {}
    for name, paths in by_language.items():
        names.update(language_named(name).module_names(sorted(paths), imported, root_name))
    return names
