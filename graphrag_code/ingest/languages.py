"""The language plug-ins as one indexing run sees them: which files it walks, the project
files its linkers read, one link context per linker, and the per-language counts it reports.

A run walks by the languages' declarations; a plug-in is loaded only for a language whose
source or project files the tree holds (a Python tree never imports the TypeScript parser)."""

from __future__ import annotations

import codecs
import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..conventions import ClassTree, ConventionConfig, FileRoles
from ..languages import (
    Declaration,
    Language,
    interpreter_map,
    language_named,
    project_file_names,
    select_declared,
    suffix_map,
)
from ..languages.base import DerivedRule
from ..linking.base import LinkContext
from ..linking.claims import settle_claims
from ..linking.edges import FileLinks, NodeIds
from ..linking.index import RepositoryIndex
from ..linking.shared_budget import DEFAULT_CEILING_MB, DEFAULT_SHARED_MB, SharedBudget
from ..model import ParsedFile, ParseIssue, SourceFile, SymbolKind
from ..parsing import DEFAULT_MAX_BYTES
from ..parsing.reading import read_source
from .report import LanguageCounts

__all__ = ["LanguageRun", "ProjectFiles", "per_language", "read_project"]

ProjectFiles = dict[str, tuple[str, str]]  # path -> (sha256, text) of tsconfig.json, …


@dataclass
class LanguageRun:
    """The languages of one run (declared) and what their linkers prepared."""

    declared: tuple[Declaration, ...]
    contexts: dict[str, LinkContext] = field(default_factory=dict)  # language -> context
    # language -> what its test and entry-point conventions read from the project files
    configs: dict[str, ConventionConfig] = field(default_factory=dict)

    @classmethod
    def of(cls, names: Iterable[str] | None) -> LanguageRun:
        return cls(select_declared(names))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(lang.name for lang in self.declared))

    @property
    def suffixes(self) -> dict[str, str]:
        return suffix_map(self.declared)

    @property
    def interpreters(self) -> dict[str, str]:
        return interpreter_map(self.declared)

    @property
    def project_files(self) -> frozenset[str]:
        return project_file_names(self.declared)

    @property
    def derived(self) -> dict[str, DerivedRule]:
        """Language -> its rule for files built from others the tree holds (the languages
        that have one; every plug-in of the run loaded: `derived_for` loads fewer)."""
        return self.derived_for(None)

    def derived_for(self, files: Iterable[SourceFile] | None) -> dict[str, DerivedRule]:
        """`derived`, for the languages of `files` only (None: all of the run's)."""
        present = None if files is None else {source.language for source in files}
        found = (
            language_named(lang.name)
            for lang in self.declared
            if present is None or lang.name in present
        )
        return {lang.name: lang.derived for lang in found if lang.derived is not None}

    def present(self, index: RepositoryIndex, project: Iterable[str]) -> tuple[Language, ...]:
        """The run's languages whose plug-ins have work: those of a file in `index`, and
        those that read one of the `project` files (a linker reporting a broken
        `tsconfig.json` in a tree without TypeScript, as it did when every plug-in ran)."""
        files = {info.parsed.language for info in index.modules.values()}
        files.update(f.language for shadowed in index.shadowed_files.values() for f in shadowed)
        paths = list(project)
        return tuple(
            language_named(lang.name)
            for lang in self.declared
            if lang.name in files or any(_named(path, lang.project_files) for path in paths)
        )

    def prepare(
        self,
        index: RepositoryIndex,
        project: ProjectFiles,
        shared_mb: int | None = DEFAULT_SHARED_MB,
        ceiling_mb: int | None = DEFAULT_CEILING_MB,
    ) -> dict[str, list[ParseIssue]]:
        """One context per linker (languages sharing a linker share it); the problems found
        in project files, by path. `shared_mb`: how much what a linker shares between files
        may grow a linking process before it is dropped (None: no limit); less where that
        would take the process past `ceiling_mb` resident (None: no ceiling)."""
        texts = {path: text for path, (_sha, text) in project.items()}
        by_linker: dict[int, LinkContext] = {}
        issues: dict[str, list[ParseIssue]] = {}
        present = self.present(index, texts)
        for language in present:
            key = id(language.linker)
            if key not in by_linker:
                wanted = {
                    path: text
                    for path, text in texts.items()
                    if any(
                        fnmatch.fnmatch(path.rpartition("/")[2], pattern)
                        for pattern in language.linker.project_files
                    )
                }
                by_linker[key] = language.linker.prepare(index, wanted)
                by_linker[key].budget = SharedBudget(shared_mb, ceiling_mb)
                issues.update(by_linker[key].issues)
            self.contexts[language.name] = by_linker[key]
        by_conventions: dict[int, ConventionConfig] = {}
        for language in present:
            key = id(language.conventions)
            if key not in by_conventions:
                patterns = language.conventions.project_files
                wanted = {path: text for path, text in texts.items() if _named(path, patterns)}
                by_conventions[key] = language.conventions.configure(wanted)
                issues.update(by_conventions[key].issues)
            self.configs[language.name] = by_conventions[key]
        return issues

    def roles(self, parsed: ParsedFile, classes: ClassTree) -> FileRoles:
        """The tests, fixtures, set-ups and entry points of one file (after `prepare`)."""
        conventions = language_named(parsed.language).conventions
        return conventions.roles(parsed, self.configs[parsed.language], classes)

    def link(self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds) -> FileLinks:
        language = language_named(parsed.language)
        links = language.linker.link(parsed, index, ids, self.contexts[parsed.language])
        return settle_claims(links, parsed, index, ids)

    def finish_linking(self) -> None:
        """Drop what the linkers shared between files (value-flow results: most of the
        indexer's memory after linking) once every file is linked."""
        self.contexts.clear()

    def project_sensitive(self) -> frozenset[str]:
        """The languages whose files must all be linked again when a project file changes."""
        return frozenset(lang.name for lang in self.declared if lang.linker_files)


def _named(path: str, patterns: frozenset[str]) -> bool:
    name = path.rpartition("/")[2]
    return any(fnmatch.fnmatch(name, pattern) for pattern in patterns)


def read_project(
    files: Iterable[SourceFile], previous: Mapping[str, tuple[str, str]]
) -> ProjectFiles:
    """The text of each project file (reused from `previous` when its sha256 is the same),
    filed under the hash of the bytes read here (the file may have changed since the walk)."""
    project: ProjectFiles = {}
    for source in files:
        known = previous.get(source.path)
        if known is not None and known[0] == source.sha256:
            project[source.path] = known
            continue
        try:
            read = read_source(source.absolute, max(source.size, DEFAULT_MAX_BYTES))
        except OSError:
            continue
        data = read.data
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
        project[source.path] = (read.sha256, data.decode("utf-8", errors="replace"))
    return project


def per_language(
    parsed: Mapping[str, ParsedFile], links: Mapping[str, FileLinks]
) -> dict[str, LanguageCounts]:
    """Files, symbols and edges (by "KIND/tier") of each language."""
    table: dict[str, LanguageCounts] = {}
    for path, file in sorted(parsed.items()):
        counts = table.setdefault(file.language, LanguageCounts())
        counts.files += 1
        counts.symbols += sum(1 for s in file.symbols if s.kind != SymbolKind.MODULE)
        file_links = links.get(path)
        if file_links is not None:
            counts.edges.update(file_links.edge_counts)
    return dict(sorted(table.items()))
