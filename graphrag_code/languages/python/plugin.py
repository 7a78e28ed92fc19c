"""The Python plug-in: its `Language` record for the registry, and its linker (scopes, LEGB,
imports, MRO, type inference and value flow: `linker.py`, `resolver.py`, `values/` hold the
rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...linking.base import LinkContext
from ...linking.edges import FileLinks, NodeIds
from ...linking.index import RepositoryIndex
from ...model import ParsedFile
from ...parsing import ModuleName
from ..base import Language
from .conventions import (
    BUILTIN_METHODS,
    IMPLICIT_PARAMETERS,
    PythonConventions,
    runs_by_syntax,
)
from .dispatch import DispatchTable
from .distributions import PYTHON_MANIFESTS, top_level_packages
from .hooks import PYTHON_HOOKS
from .layout import PYTHON_LAYOUT
from .linker import link_file
from .modules import guess_module, looks_like_test_module, module_names
from .parser import PythonParser
from .run_rules import PYTHON_RUN_RULES
from .tables import PYTHON_RULES
from .values.engine import SharedValues

__all__ = ["PYTHON", "PythonLinkContext", "PythonLinker"]


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


def _docstring(text: str) -> str:
    return f'"""{text}"""'


def _module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    return module_names(paths, imported, root_name=root_name)


PYTHON = Language(
    name="python",
    aliases=("py",),
    suffixes=(".py",),
    interpreters=("python", "pypy"),
    parser=PythonParser,
    linker=PythonLinker(),
    module_names=_module_names,
    conventions=PythonConventions(),
    doc_comment=_docstring,
    dispatch_edges=True,
    guess_module=guess_module,
    test_path=looks_like_test_module,
    layout=PYTHON_LAYOUT,
    manifests=PYTHON_MANIFESTS,
    packages=top_level_packages,
    runs_by_syntax=runs_by_syntax,
    constructor="__init__",
    index_rules=PYTHON_RULES,
    implicit_parameters=IMPLICIT_PARAMETERS,
    builtin_methods=BUILTIN_METHODS,
    hooks=PYTHON_HOOKS,
    run_rules=PYTHON_RUN_RULES,
)
