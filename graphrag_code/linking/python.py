"""The Python plug-in's linker: scopes (LEGB), imports, MRO and simple type inference
(`linker.py` and `resolver.py` hold the rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..model import ParsedFile
from .base import LinkContext
from .dispatch import DispatchTable
from .index import RepositoryIndex
from .linker import FileLinks, NodeIds, link_file
from .values import SharedValues

__all__ = ["PythonLinkContext", "PythonLinker"]


@dataclass
class PythonLinkContext(LinkContext):
    """One run's value-flow results, shared by the files it links (each file still records
    what they consulted, so incremental runs stay exact)."""

    values: SharedValues = field(default_factory=dict)
    dispatch: DispatchTable | None = None  # made on the first file (it needs the run's ids)


class PythonLinker:
    project_files: frozenset[str] = frozenset()

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        return PythonLinkContext()

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        if not isinstance(context, PythonLinkContext):
            return link_file(parsed, index, ids)
        if context.dispatch is None or context.dispatch.index is not index:
            context.dispatch = DispatchTable(index, ids)
        links = link_file(parsed, index, ids, context.values, context.dispatch)
        context.budget.check(context.values)
        return links
