"""What every language's linker offers: one parsed file in, its resolved edges out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ..model import ParsedFile, ParseIssue
from .edges import FileLinks, NodeIds
from .index import RepositoryIndex
from .shared_budget import SharedBudget

__all__ = ["MAX_OVERRIDES", "LinkContext", "Linker"]

MAX_OVERRIDES = 16
"""A method overridden more often than this (a plug-in hook, `__init__`) gets no dispatch
edges: so many possible targets say nothing about a trace."""


@dataclass
class LinkContext:
    """What a linker prepared once per run for all its files (a language's project settings:
    TypeScript's tsconfig.json paths, a workspace's packages), and what was wrong with it."""

    issues: dict[str, list[ParseIssue]] = field(default_factory=dict)  # path -> problems
    # how much what the linker shares between files may grow a process (`shared_budget.py`)
    budget: SharedBudget = field(default_factory=SharedBudget)


class Linker(Protocol):
    """Resolves the files of one or more languages (TypeScript and JavaScript share one)."""

    project_files: frozenset[str]  # names of files it reads besides sources (`tsconfig.*.json`)

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        """The run's context from the project files' text (path -> text); never raises on
        bad content: problems go to `LinkContext.issues`."""
        ...

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        """Every IMPORTS, CALLS, INHERITS and USES_TYPE edge of one file."""
        ...
