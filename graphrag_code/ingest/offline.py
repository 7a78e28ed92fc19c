"""Walk, parse and link a repository in memory, without Neo4j.

Used by accuracy benchmarks and tests, and handy in notebooks: the same records the indexer
writes, available as Python objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..linking.index import RepositoryIndex
from ..linking.linker import FileLinks, NodeIds, link_file
from ..model import Edge, ParsedFile, SkippedFile
from ..parsing import (
    LANGUAGES,
    ParseJob,
    imported_prefixes,
    module_names,
    parse_files,
    walk_repository,
)

__all__ = ["LinkedRepository", "link_repository"]


@dataclass
class LinkedRepository:
    repo: str
    parsed: dict[str, ParsedFile]
    index: RepositoryIndex
    ids: NodeIds
    links: dict[str, FileLinks]
    skipped: list[SkippedFile]

    def edges(self) -> list[Edge]:
        return [edge for path in sorted(self.links) for edge in self.links[path].edges]


def link_repository(path: str | Path, *, repo: str = "repo", workers: int = 1) -> LinkedRepository:
    """Parse and link every source file under `path`."""
    root = Path(path).resolve()
    walked = walk_repository(root, languages=LANGUAGES)
    sources = {f.path: f for f in walked.files}
    names = module_names(sources, root_name=root.name)
    parsed, skipped = parse_files(
        [ParseJob(s, names[p]) for p, s in sources.items()], workers=workers
    )
    imported = imported_prefixes(
        s.module for f in parsed for s in f.imports if s.level == 0 and s.module
    )
    final = module_names(sources, imported, root_name=root.name)
    moved = [f.path for f in parsed if final[f.path].module != f.module]
    if moved:
        reparsed, _ = parse_files([ParseJob(sources[p], final[p]) for p in moved])
        keep = {f.path: f for f in parsed if f.path not in moved}
        keep.update({f.path: f for f in reparsed})
        parsed = list(keep.values())
    files = {f.path: f for f in parsed}
    index = RepositoryIndex(files.values())
    ids = NodeIds(repo, index)
    links = {p: link_file(f, index, ids) for p, f in sorted(files.items())}
    return LinkedRepository(repo, files, index, ids, links, walked.skipped + skipped)
