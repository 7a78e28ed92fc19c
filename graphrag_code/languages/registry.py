"""One `Language` entry per language: its files, its parser and its linker."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..conventions import Conventions, EcmaScriptConventions, PythonConventions
from ..errors import ConfigurationError
from ..linking.base import Linker
from ..linking.python import PythonLinker
from ..linking.typescript import EcmaScriptLinker
from ..model import SourceFile
from ..parsing import ModuleName, PythonParser, SourceParser
from ..parsing import module_names as python_module_names
from ..parsing.typescript import (
    JAVASCRIPT_SUFFIXES,
    TYPESCRIPT_SUFFIXES,
    EcmaScriptParser,
    ecmascript_module_names,
)

__all__ = [
    "LANGUAGES", "Language", "Linker", "interpreter_map", "language_named", "module_names",
    "project_file_names", "select_languages", "suffix_map",
]  # fmt: skip

ModuleNamer = Callable[[list[str], frozenset[str], str | None], dict[str, ModuleName]]


@dataclass(frozen=True)
class Language:
    """A language plug-in. `name` is the `language` property of its nodes; `aliases` are
    what `index --languages` accepts besides the name."""

    name: str
    aliases: tuple[str, ...]
    suffixes: tuple[str, ...]
    interpreters: tuple[str, ...]  # shebang programs of extension-less scripts
    parser: type[SourceParser]
    linker: Linker
    module_names: ModuleNamer  # paths of its files -> module names (qualified-name scheme)
    conventions: Conventions  # its tests, fixtures and entry points


def _python_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    return python_module_names(paths, imported, root_name=root_name)


_ECMASCRIPT = EcmaScriptLinker()  # TypeScript and JavaScript import each other: one linker
_ECMASCRIPT_CONVENTIONS = EcmaScriptConventions()

LANGUAGES: tuple[Language, ...] = (
    Language(
        name="python",
        aliases=("py",),
        suffixes=(".py",),
        interpreters=("python", "pypy"),
        parser=PythonParser,
        linker=PythonLinker(),
        module_names=_python_names,
        conventions=PythonConventions(),
    ),
    Language(
        name="typescript",
        aliases=("ts", "tsx"),
        suffixes=TYPESCRIPT_SUFFIXES,
        interpreters=("ts-node", "tsx", "deno", "bun"),
        parser=EcmaScriptParser,
        linker=_ECMASCRIPT,
        module_names=ecmascript_module_names,
        conventions=_ECMASCRIPT_CONVENTIONS,
    ),
    Language(
        name="javascript",
        aliases=("js", "jsx"),
        suffixes=JAVASCRIPT_SUFFIXES,
        interpreters=("node", "nodejs"),
        parser=EcmaScriptParser,
        linker=_ECMASCRIPT,
        module_names=ecmascript_module_names,
        conventions=_ECMASCRIPT_CONVENTIONS,
    ),
)
"""Every supported language. Adding one: a parser, a linker, one entry here."""


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
