"""One `Language` entry per language: its files, its parser and its linker.

The built-in languages are declared apart from their plug-ins (`declarations.py`): routing,
walking and naming project files read the declarations, and a plug-in's module is imported
the first time its `Language` is asked for (`language_named`, `languages`)."""

from __future__ import annotations

import importlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..errors import ConfigurationError
from .declarations import DECLARED, Declaration, declare

if TYPE_CHECKING:
    from ..linking.rules import IndexRules
    from ..model import SourceFile
    from ..parsing import ModuleName
    from .base import Language

    # the plug-ins `DECLARED` names, imported when first asked for (`_plugin`); named here
    # for the type checker and the drawing of the structure (STRUCTURE.md)
    from .ecmascript import plugin as ecmascript_plugin  # noqa: F401 - see above
    from .go import plugin as go_plugin  # noqa: F401 - see above
    from .java import plugin as java_plugin  # noqa: F401 - see above
    from .python import plugin as python_plugin  # noqa: F401 - see above
    from .rust import plugin as rust_plugin  # noqa: F401 - see above

    LANGUAGES: tuple[Language, ...]

__all__ = [
    "LANGUAGES", "Declaration", "declarations", "dispatch_stored",
    "index_rules", "interpreter_map", "language_named", "languages", "module_names",
    "project_file_names", "register", "routes", "select_declared", "select_languages",
    "suffix_map", "unregister",
]  # fmt: skip

_REGISTERED: list[Language] = []  # plug-ins added at run time (`register`)


def __getattr__(name: str) -> object:
    """`LANGUAGES`: every built-in `Language`, their plug-ins loaded."""
    if name == "LANGUAGES":
        return tuple(_plugin(declared.home) for declared in DECLARED)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _plugin(home: str) -> Language:
    module, _, record = home.partition(":")
    language: Language = getattr(importlib.import_module(module), record)
    return language


@dataclass(frozen=True)
class Routes:
    """What decides, for every language this process reads, whether a path is its source
    (by suffix: the language's name) or a project file one of them reads."""

    suffixes: Mapping[str, str]
    project_files: frozenset[str]


def register(language: Language) -> None:
    """Add a language plug-in from outside the package (another package, a test) for this
    process and the worker processes it starts. Its name, aliases and suffixes must be new."""
    taken = {alias for lang in declarations() for alias in (lang.name, *lang.aliases)}
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
    every = declarations()
    return Routes(MappingProxyType(suffix_map(every)), project_file_names(every))


def declarations() -> tuple[Declaration, ...]:
    """Every language this process reads, declared: the built-in ones, then those registered
    (no plug-in is loaded)."""
    return (*DECLARED, *(declare(language) for language in _REGISTERED))


def languages() -> tuple[Language, ...]:
    """Every language this process reads: the built-in ones, then those registered (each
    plug-in loaded; `declarations` answers what routing needs without loading them)."""
    return (*(_plugin(declared.home) for declared in DECLARED), *_REGISTERED)


def dispatch_stored() -> tuple[str, ...]:
    """The languages whose linkers store the calls that may reach overrides as edges."""
    return tuple(lang.name for lang in declarations() if lang.dispatch_edges)


def index_rules(names: Iterable[str] | None = None) -> dict[str, IndexRules]:
    """Each language's rules for the repository's lookup tables, by name (`RepositoryIndex`):
    of the languages `names` (those of a run's files), or of every language (None)."""
    if names is None:
        return {lang.name: lang.index_rules for lang in languages()}
    return {name: language_named(name).index_rules for name in sorted(set(names))}


def language_named(name: str) -> Language:
    """The plug-in of the language `name`, loaded on first use."""
    for declared in DECLARED:
        if declared.name == name:
            return _plugin(declared.home)
    for language in _REGISTERED:
        if language.name == name:
            return language
    raise ConfigurationError(f"unknown language {name!r}")


def select_declared(names: Iterable[str] | None) -> tuple[Declaration, ...]:
    """The languages a run reads, declared: all of them for None, else those named (`py`,
    `ts`, …)."""
    every = declarations()
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


def select_languages(names: Iterable[str] | None) -> tuple[Language, ...]:
    """The languages a run reads (`select_declared`), their plug-ins loaded."""
    return tuple(language_named(declared.name) for declared in select_declared(names))


def suffix_map(languages: Iterable[Language | Declaration]) -> dict[str, str]:
    return {suffix: lang.name for lang in languages for suffix in lang.suffixes}


def interpreter_map(languages: Iterable[Language | Declaration]) -> dict[str, str]:
    return {program: lang.name for lang in languages for program in lang.interpreters}


def project_file_names(languages: Iterable[Language | Declaration]) -> frozenset[str]:
    """Names of the project files the languages' linkers and conventions read."""
    return frozenset(
        name
        for lang in languages
        for name in (
            lang.project_files
            if isinstance(lang, Declaration)
            else lang.linker.project_files | lang.conventions.project_files
        )
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
