"""One `Language` entry per language: its files, its parser and its linker."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from ..errors import ConfigurationError
from ..linking.base import Linker
from ..linking.rules import IndexRules
from ..model import SourceFile
from ..parsing import ModuleName
from .base import Language
from .ecmascript.plugin import JAVASCRIPT, TYPESCRIPT
from .go.plugin import GO
from .java.plugin import JAVA
from .python.plugin import PYTHON
from .rust.plugin import RUST

__all__ = [
    "LANGUAGES", "Language", "Linker", "dispatch_stored", "index_rules", "interpreter_map",
    "language_named", "languages", "module_names", "project_file_names", "register", "routes",
    "select_languages", "suffix_map", "unregister",
]  # fmt: skip

LANGUAGES: tuple[Language, ...] = (PYTHON, TYPESCRIPT, JAVASCRIPT, GO, JAVA, RUST)
"""The languages that ship with graphrag_code. Adding one: a folder beside `python/` whose
`plugin.py` declares its `Language`, and its name here."""

_REGISTERED: list[Language] = []  # plug-ins added at run time (`register`)


@dataclass(frozen=True)
class Routes:
    """What decides, for every language this process reads, whether a path is its source
    (by suffix: the language's name) or a project file one of them reads."""

    suffixes: Mapping[str, str]
    project_files: frozenset[str]


def register(language: Language) -> None:
    """Add a language plug-in from outside the package (another package, a test) for this
    process and the worker processes it starts. Its name, aliases and suffixes must be new."""
    taken = {alias for lang in languages() for alias in (lang.name, *lang.aliases)}
    clash = taken & {language.name, *language.aliases}
    clash |= routes().suffixes.keys() & set(language.suffixes)
    if clash:
        raise ConfigurationError(
            f"cannot register language {language.name!r}: {', '.join(sorted(clash))} already taken"
        )
    _REGISTERED.append(language)
    routes.cache_clear()


def unregister(name: str) -> None:
    """Remove a language added with `register` (the built-in ones stay)."""
    _REGISTERED[:] = [lang for lang in _REGISTERED if lang.name != name]
    routes.cache_clear()


@cache
def routes() -> Routes:
    """The suffixes and project files of every language, made once (the watcher and `diff`
    ask for each path; `register` and `unregister` make them again)."""
    every = languages()
    return Routes(MappingProxyType(suffix_map(every)), project_file_names(every))


def languages() -> tuple[Language, ...]:
    """Every language this process reads: the built-in ones, then those registered."""
    return (*LANGUAGES, *_REGISTERED)


def dispatch_stored() -> tuple[str, ...]:
    """The languages whose linkers store the calls that may reach overrides as edges."""
    return tuple(lang.name for lang in languages() if lang.dispatch_edges)


def index_rules() -> dict[str, IndexRules]:
    """Each language's rules for the repository's lookup tables, by name (`RepositoryIndex`)."""
    return {lang.name: lang.index_rules for lang in languages()}


def language_named(name: str) -> Language:
    for language in languages():
        if language.name == name:
            return language
    raise ConfigurationError(f"unknown language {name!r}")


def select_languages(names: Iterable[str] | None) -> tuple[Language, ...]:
    """The languages a run reads: all of them for None, else those named (`py`, `ts`, …)."""
    every = languages()
    if names is None:
        return every
    wanted = {name.strip().lower() for name in names if name.strip()}
    chosen = [lang for lang in every if wanted & {lang.name, *lang.aliases}]
    known = {alias for lang in every for alias in (lang.name, *lang.aliases)}
    unknown = sorted(wanted - known)
    if unknown or not chosen:
        raise ConfigurationError(
            f"unknown language(s) {', '.join(unknown) or '(none given)'}: choose from "
            + ", ".join(f"{lang.name} ({', '.join(lang.aliases)})" for lang in every)
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
