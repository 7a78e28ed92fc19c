"""Walk, parse and link a repository in memory, without Neo4j.

Used by accuracy benchmarks and tests, and handy in notebooks: the same records the indexer
writes, available as Python objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..languages import index_rules, language_named, module_names
from ..linking.base import LinkContext
from ..linking.edges import FileLinks, NodeIds
from ..linking.index import RepositoryIndex
from ..model import Edge, ParsedFile, ParseIssue, SkippedFile
from ..parsing import ModuleName, ParseJob, imported_prefixes, parse_files, walk_repository
from .generated import without_generated
from .languages import LanguageRun, ProjectFiles, read_project
from .link_pool import link_in_processes, link_weight

__all__ = ["LinkedRepository", "link_parsed", "link_repository"]


@dataclass
class LinkedRepository:
    repo: str
    parsed: dict[str, ParsedFile]
    index: RepositoryIndex
    ids: NodeIds
    links: dict[str, FileLinks]
    skipped: list[SkippedFile]
    project_issues: dict[str, list[ParseIssue]]
    contexts: dict[str, LinkContext]  # language -> what its linker prepared

    def edges(self) -> list[Edge]:
        return [edge for path in sorted(self.links) for edge in self.links[path].edges]


def link_repository(
    path: str | Path,
    *,
    repo: str = "repo",
    workers: int = 1,
    languages: frozenset[str] | None = None,
    include_generated: bool = False,
) -> LinkedRepository:
    """Parse and link every source file under `path` (of `languages`; None: all), generated
    files and bundles only when `include_generated`."""
    root = Path(path).resolve()
    langs = LanguageRun.of(languages)
    walked = walk_repository(
        root,
        languages=langs.suffixes,
        interpreters=langs.interpreters,
        project_files=langs.project_files,
    )
    if not include_generated:
        walked, _verdicts = without_generated(walked, langs.derived_for(walked.files))
    sources = {f.path: f for f in walked.files}
    names = module_names(sources, frozenset(), root_name=root.name)

    def job(path: str, name: ModuleName) -> ParseJob:
        return ParseJob(sources[path], name, language_named(sources[path].language).parser)

    parsed, skipped, _read = parse_files([job(p, names[p]) for p in sources], workers=workers)
    imported = imported_prefixes(
        s.module for f in parsed for s in f.imports if s.level == 0 and s.module
    )
    final = module_names(sources, imported, root_name=root.name)
    moved = [f.path for f in parsed if final[f.path].module != f.module]
    if moved:
        reparsed = parse_files([job(p, final[p]) for p in moved]).parsed
        keep = {f.path: f for f in parsed if f.path not in moved}
        keep.update({f.path: f for f in reparsed})
        parsed = list(keep.values())
    linked = link_parsed(
        {f.path: f for f in parsed}, repo=repo, workers=workers, languages=languages,
        project=read_project(walked.project, {}),
    )  # fmt: skip
    linked.skipped = walked.skipped + skipped
    return linked


def link_parsed(
    files: dict[str, ParsedFile],
    *,
    repo: str = "repo",
    workers: int = 1,
    languages: frozenset[str] | None = None,
    project: ProjectFiles | None = None,
) -> LinkedRepository:
    """Link parsed files (on up to `workers` processes), as the indexer does."""
    langs = LanguageRun.of(languages)
    index = RepositoryIndex(files.values(), index_rules(f.language for f in files.values()))
    ids = NodeIds(repo, index)
    issues = langs.prepare(index, project or {})
    paths = sorted(files)
    links = link_in_processes(
        paths,
        [link_weight(files[p]) for p in paths],
        lambda path: langs.link(files[path], index, ids),
        workers=workers,
        advance=lambda _done: None,
    )
    return LinkedRepository(repo, files, index, ids, links, [], issues, langs.contexts)
