"""The frozen records `GraphReader` returns: code nodes as the reads see them.

`SymbolRef`, `PathStep` and `EntryPoint` are also public results (re-exported by
`graphrag_code.retrieval.relations`); the others are handed to one retrieval stage each.
Every node that lives in a file carries a `Location`; an external target has none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..location import Location
from ..model import POSSIBLE_TIERS
from .completeness import Completeness

__all__ = [
    "CallEdge",
    "CodeSpan",
    "ContextNode",
    "CoverageState",
    "DeadCandidate",
    "Definition",
    "EntryPoint",
    "FileNode",
    "ImpactStep",
    "ImportedModule",
    "KeptCode",
    "Neighbour",
    "Neighbourhood",
    "PathStep",
    "ProcessTests",
    "ProgramCall",
    "RanInto",
    "ReachBack",
    "RepositoryInfo",
    "RepositorySize",
    "SymbolMatch",
    "SymbolRef",
    "TestEdge",
    "UntestedSymbol",
]


@dataclass(frozen=True)
class SymbolRef:
    """A code node of one repository: a module, class, function or method."""

    id: str
    qualified_name: str
    kind: str
    repo: str
    location: Location


@dataclass(frozen=True)
class SymbolMatch:
    """A node a user-given name may refer to, and how well it matches: 0 the qualified name,
    1 the short name, 2 a dotted suffix, 3 a module's file path (lower is better)."""

    symbol: SymbolRef
    rank: int


@dataclass(frozen=True)
class Neighbour:
    """One edge of a breadth-first step: `from_id`'s neighbour, and the edge between them."""

    from_id: str
    id: str  # a code node's id; an external target's qualified name
    qualified_name: str
    kind: str | None  # None for an external target
    location: Location | None  # None for an external target
    external: bool
    edge: str  # the relationship type
    resolution: str | None  # CALLS: exact, inferred, name or dispatch; None for other edges
    lines: tuple[int, ...]
    via: str | None = None  # CALLS: how the call reached it through a value (None: by name)
    repo: str | None = None  # the node's repository (None for an external target)


@dataclass(frozen=True)
class PathStep:
    """One node of a path, with the edge that led to it (None on the first node)."""

    id: str
    qualified_name: str
    kind: str
    location: Location
    edge: str | None  # the relationship type: CALLS, IMPORTS or DEFINES
    resolution: str | None  # CALLS: exact, inferred, name or dispatch; None for other edges
    lines: tuple[int, ...] = ()  # where the edge's calls or imports are written
    why: str | None = None  # CALLS: why the call reaches it ("dispatch via `Base.m`", a value)
    repo: str | None = None  # the node's repository (a chain may cross repositories)

    @property
    def certain(self) -> bool:
        """The edge that led here is certain: not a name match, not a dispatch to an
        override (the first step is certain)."""
        return self.resolution not in POSSIBLE_TIERS


@dataclass(frozen=True)
class CallEdge:
    """The CALLS edge between two nodes (or a node and an external target)."""

    target: str  # the target node's id, or an external target's qualified name
    qualified_name: str
    external: bool
    resolution: str | None
    lines: tuple[int, ...]
    via: str | None  # how the call reached the target through a value; None: by its name


@dataclass(frozen=True)
class EntryPoint:
    """A root (public code nothing calls) or a central symbol (by PageRank) of a repository."""

    id: str
    qualified_name: str
    kind: str
    location: Location
    pagerank: float
    in_degree: int
    out_degree: int


@dataclass(frozen=True)
class ContextNode:
    """What an LLM context shows of a node: its signature and docstring, and the code of a
    hit itself (None for its neighbours, which are shown by signature only)."""

    id: str
    qualified_name: str
    kind: str
    location: Location
    signature: str | None
    docstring: str | None
    code: str | None = None
    language: str | None = None  # python, typescript, javascript: how to fence the code


@dataclass(frozen=True)
class Neighbourhood:
    """A hit and its closest neighbours: certain callees, used types, siblings."""

    node: ContextNode
    callees: tuple[ContextNode, ...]
    types: tuple[ContextNode, ...]
    siblings: tuple[ContextNode, ...]


@dataclass(frozen=True)
class RepositorySize:
    """How many :Code nodes a repository holds, how many of them have a vector, and how many
    are test code."""

    nodes: int
    vectors: int
    tests: int = 0


@dataclass(frozen=True)
class Definition:
    """What a definition says about itself: where it is, its signature, docstring and code,
    and how connected it is (calls in and out, PageRank)."""

    symbol: SymbolRef
    signature: str | None
    docstring: str | None
    code: str | None
    language: str | None
    in_degree: int
    out_degree: int
    pagerank: float


# -- change impact, tests, dead code (issue 16) --------------------------------------------------
@dataclass(frozen=True)
class FileNode:
    """A node of a file as change impact sees it: where it is and its test role."""

    symbol: SymbolRef
    name: str
    test_code: bool
    test_role: str | None  # test, fixture, setup; None for other code
    pagerank: float


@dataclass(frozen=True)
class ImpactStep:
    """One inbound edge of a blast radius: `symbol` calls, imports, subclasses or uses
    `from_id`."""

    from_id: str
    symbol: SymbolRef
    edge: str  # CALLS, IMPORTS, INHERITS or USES_TYPE
    resolution: str | None
    lines: tuple[int, ...]
    pagerank: float
    test_code: bool


@dataclass(frozen=True)
class TestEdge:
    """A test that exercises `target` (a REACHES chain leads from it), or a test defined
    inside it."""

    __test__ = False  # a record, not a pytest test class

    target: str
    test: SymbolRef
    distance: int
    # exact, inferred or name; "ran" (impact.tests.RAN): it ran `target` under coverage; None
    # for a test inside `target`
    resolution: str | None
    via: str | None  # the fixture or set-up it reaches `target` through
    module: str | None = None  # the module defining the test (None: the test is a module)
    runner: str | None = None  # its stored runner id (`TestUnit.runner`), if the index has one
    # the ids it runs as, one per class that has it, where a class inherits it (`TestUnit.case`)
    cases: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReachBack:
    """The part of the reach graph that leads to some nodes: for each node reached, the
    REACHES edges into it as (source, resolution, via); which of the sources are tests; and
    whether the walk stopped at its size cap before it ended."""

    callers: dict[str, list[tuple[str, str, str | None]]]
    tests: frozenset[str]
    truncated: bool


@dataclass(frozen=True)
class UntestedSymbol:
    symbol: SymbolRef
    pagerank: float
    callers: int  # inbound CALLS edges of any tier


@dataclass(frozen=True)
class DeadCandidate:
    """A symbol without inbound edges, and what may still reach it."""

    symbol: SymbolRef
    name: str
    language: str | None
    entry_points: tuple[str, ...]
    decorators: tuple[str, ...]
    parent_kind: str | None
    parent_name: str | None
    overrides_used: tuple[str, ...]  # overridden base methods that are called
    test_reach: str | None  # the best tier by which a test reaches it (None: no test does)


@dataclass(frozen=True)
class RepositoryInfo:
    """An indexed repository: its last indexing run and what it holds.

    `status` is "complete", or "indexing" while a run is under way or after one was
    interrupted; `head` the git commit indexed (None outside git); `root` the folder indexed,
    on the machine that indexed it. `nodes` counts code nodes by (language, kind); `vectors`
    how many of them have a vector (None: not read)."""

    name: str
    root: str | None
    status: str
    head: str | None
    indexed_at: datetime | None
    files: int
    symbols: int
    nodes: dict[tuple[str, str], int]
    vectors: int | None = None

    @property
    def completeness(self) -> Completeness:
        """Its run's status and vector coverage, as `answer_warnings` reads them."""
        return Completeness(
            self.name, self.status, sum(self.nodes.values()), self.vectors, self.root
        )

    @property
    def languages(self) -> dict[str, int]:
        """Files (module nodes) per language, most files first."""
        files: dict[str, int] = {}
        for (language, kind), count in self.nodes.items():
            if kind == "Module":
                files[language] = files.get(language, 0) + count
        return dict(sorted(files.items(), key=lambda item: (-item[1], item[0])))


@dataclass(frozen=True)
class CodeSpan:
    """A function, method or class with its lines, which covered lines are mapped onto."""

    id: str
    path: str
    start_line: int
    end_line: int
    content_hash: str | None
    code: str | None = None  # functions and methods only: where their body starts


@dataclass(frozen=True)
class CoverageState:
    """The last coverage import of a repository."""

    commit: str | None
    recorded_at: str | None  # ISO time the data file was written
    imported_at: str | None
    tests: int
    edges: int
    file: str | None


@dataclass(frozen=True)
class KeptCode:
    """A node of a module that may read what code run outside every test kept there
    (`GraphReader.kept_state_code`), and the tests that ran it."""

    ids: tuple[str, ...]  # the nodes asked about whose kept state the module may hold
    module: str  # its module's qualified name
    tests: tuple[str, ...]
    outside: bool  # it also ran outside every test
    suite: int  # the tests of the last coverage import (`CoverageState.tests`)


@dataclass(frozen=True)
class ImportedModule:
    """A module of the repository of some asked nodes (`GraphReader.module_imports`): what
    its import runs first, and its tests."""

    id: str
    qualified_name: str
    package: bool  # a package (`__init__`): it runs at the import of every module inside it
    imports: tuple[str, ...]  # ids of the modules of its repository it imports
    tests: tuple[str, ...]  # the tests it defines (a test module)
    asked: tuple[str, ...]  # the asked nodes it defines
    runner: bool = False  # code of it ran outside every test and in every test: the runner's


@dataclass(frozen=True)
class ProcessTests:
    """The tests of one test module that start a child process (`GraphReader.process_tests`),
    with the module's text and the code that starts it: where a command names its program."""

    repo: str
    module: str  # the test module's node id
    text: str
    tests: tuple[str, ...]
    codes: tuple[str, ...]  # the code of the test-code functions calling a process starter


@dataclass(frozen=True)
class ProgramCall:
    """Code a repository's program starts with (`GraphReader.program_entries`): a function
    named as a console or GUI script, or the callees of a module's top level where the
    module can run as a program (its text and each call's lines, to keep those of the main
    block)."""

    ids: tuple[str, ...]
    scripts: tuple[str, ...] = ()  # the entry point reasons naming it a script
    module: str | None = None  # the calling module's qualified name
    path: str | None = None
    text: str | None = None
    lines: tuple[tuple[int, ...], ...] = ()  # per id, the lines of its calls


@dataclass(frozen=True)
class RanInto:
    """The tests that ran a node, and its content hash now and at the coverage import."""

    id: str
    tests: tuple[str, ...]
    content_hash: str | None
    coverage_hash: str | None
    outside: bool = False  # it also ran outside every test (at import or collection)
    # test -> the cases of it that ran the node, for a test method several classes run
    cases: dict[str, tuple[str, ...]] = field(default_factory=dict)
