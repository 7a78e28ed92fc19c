"""The structured content of each tool's answer: frozen records built from the library's
typed results, so a tool's output schema is the JSON schema of these dataclasses.

Every answer carries the freshness of the repositories it speaks about and how many items the
token guard left out (`omitted`), so a program reading the structured content knows what the
model reading the text knows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..graph import AnswerWarning, Definition, EntryPoint, SymbolRef
from ..impact import DiffImpact, TestsFor
from ..location import Location
from ..retrieval.context import ContextItem
from ..retrieval.relations import PathResult, RelationsResult
from ..retrieval.search import Hit
from .freshness import Freshness

__all__ = [
    "ContextAnswer",
    "DiffImpactAnswer",
    "EntryPointsAnswer",
    "IndexAnswer",
    "PathAnswer",
    "RelationsAnswer",
    "RepositoriesAnswer",
    "RepositorySummary",
    "SearchAnswer",
    "SymbolAnswer",
    "TestsForAnswer",
    "ToolFailure",
]


@dataclass(frozen=True)
class SearchAnswer:
    question: str
    intent: str  # callers, callees, impact, importers, dependencies, trace, definition, concept
    hits: list[Hit]
    warnings: list[AnswerWarning]  # also under each repository's `freshness`
    freshness: list[Freshness]
    omitted: int = 0


@dataclass(frozen=True)
class ContextAnswer:
    question: str
    items: list[ContextItem]  # each with its `path:start-end` citation and text
    tokens: int
    truncated: bool  # something relevant did not fit the budget
    freshness: list[Freshness]


@dataclass(frozen=True)
class RelationsAnswer:
    """callers, callees, importers, dependencies, impact: `result.certain` were reached
    through exact or inferred edges only, `result.possible` through a name match."""

    result: RelationsResult
    freshness: list[Freshness]
    omitted: int = 0


@dataclass(frozen=True)
class PathAnswer:
    result: PathResult
    freshness: list[Freshness]


@dataclass(frozen=True)
class DiffImpactAnswer:
    """A change's symbols, the code it may break, the tests to run and the changes no test
    reaches; the lists as far as the answer budget allowed (`omitted` left out)."""

    impact: DiffImpact
    freshness: list[Freshness]
    omitted: int = 0


@dataclass(frozen=True)
class TestsForAnswer:
    __test__ = False  # a record, not a pytest test class

    result: TestsFor
    freshness: list[Freshness]
    omitted: int = 0


@dataclass(frozen=True)
class EntryPointsAnswer:
    repo: str
    roots: list[EntryPoint]  # public functions and methods nothing calls but that call others
    central: list[EntryPoint]  # the highest PageRank
    freshness: list[Freshness]
    omitted: int = 0


@dataclass(frozen=True)
class SymbolAnswer:
    """The definition a name refers to, or (`definition` None) the equally good candidates."""

    name: str
    definition: Definition | None
    candidates: list[SymbolRef]
    freshness: list[Freshness]
    code_lines_omitted: int = 0


@dataclass(frozen=True)
class RepositorySummary:
    name: str
    status: str
    head: str | None
    indexed_at: datetime | None
    files: int
    symbols: int
    languages: dict[str, int]  # files per language


@dataclass(frozen=True)
class RepositoriesAnswer:
    repositories: list[RepositorySummary]
    freshness: list[Freshness]


@dataclass(frozen=True)
class IndexAnswer:
    repo: str
    report: dict[str, Any]  # IngestReport.as_dict(): files, symbols, edges, seconds, …
    freshness: list[Freshness]


@dataclass(frozen=True)
class ToolFailure:
    """The structured content of an error answer."""

    error: str  # the exception's class: SymbolNotFoundError, Neo4jUnavailableError, …
    message: str
    candidates: list[str] = field(default_factory=list)  # names the caller may have meant
    locations: list[Location] = field(default_factory=list)  # where those candidates live
