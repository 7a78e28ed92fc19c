"""The Python plug-in's linker: scopes (LEGB), imports, MRO and simple type inference
(`linker.py` and `resolver.py` hold the rules)."""

from __future__ import annotations

from collections.abc import Mapping

from ..model import ParsedFile
from .base import LinkContext
from .index import RepositoryIndex
from .linker import FileLinks, NodeIds, link_file

__all__ = ["PythonLinker"]


class PythonLinker:
    project_files: frozenset[str] = frozenset()

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        return LinkContext()

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        return link_file(parsed, index, ids)
