"""The closing report of an indexing run."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..graph.crossedges import CrossEdgeChange, CrossEdgeKept
from ..model import ParseIssue, SkippedFile

__all__ = ["IngestReport", "LanguageCounts", "RepositorySummary", "cross_repo_warnings"]


@dataclass
class LanguageCounts:
    """What one language contributed to a repository's graph."""

    files: int = 0
    symbols: int = 0
    edges: Counter[str] = field(default_factory=Counter)  # "CALLS/exact", …

    def as_dict(self) -> dict[str, object]:
        return {
            "files": self.files,
            "symbols": self.symbols,
            "edges": dict(sorted(self.edges.items())),
        }


@dataclass(frozen=True)
class RepositorySummary:
    """What a run's report says of the whole repository rather than of what the run changed.
    Kept in the incremental state: a run that finds nothing changed reports it from there,
    without reading the parses and links it would otherwise rebuild the same figures from."""

    files: int
    modules: int
    symbols: int
    edges: Counter[str]
    unresolved_calls: int
    unresolved_kinds: Counter[str]
    languages: dict[str, LanguageCounts]
    tests: int
    tests_reached: int
    project_issues: dict[str, list[ParseIssue]]


@dataclass
class IngestReport:
    repo: str
    root: str
    mode: str = "full"  # "full" or "incremental"
    files_total: int = 0
    files_parsed: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    files_relinked: int = 0
    modules: int = 0
    symbols: int = 0
    nodes_written: int = 0
    nodes_deleted: int = 0
    # edge rows this run wrote and deleted: all of them on a full run, the diff otherwise
    edges_written: int = 0
    edges_deleted: int = 0
    edges: Counter[str] = field(default_factory=Counter)  # "CALLS/exact", "IMPORTS/external", …
    unresolved_calls: int = 0
    # why those sites stayed unresolved: "dynamic:eval", "values:many", … (see linking.calls)
    unresolved_kinds: Counter[str] = field(default_factory=Counter)
    skipped: list[SkippedFile] = field(default_factory=list)
    skipped_dirs: list[SkippedFile] = field(default_factory=list)
    parse_issues: dict[str, list[ParseIssue]] = field(default_factory=dict)  # with project's
    project_issues: dict[str, list[ParseIssue]] = field(default_factory=dict)  # tsconfig.json, …
    seconds: dict[str, float] = field(default_factory=dict)
    # seconds each kind of graph write took on the thread that writes behind the run
    # ("create_nodes", "create_edges", ...): the stages' times overlap with them
    write_seconds: dict[str, float] = field(default_factory=dict)
    embedded: int = 0
    embedding_cache_hits: int = 0
    # a run that left embedding for later (`index --embed later`, `embed=False`): the nodes
    # still lacking an up-to-date vector, and the command that fills them in (None: none lack)
    vectors_pending: int | None = None
    embed_command: str | None = None
    languages: dict[str, LanguageCounts] = field(default_factory=dict)  # "python" -> counts
    tests: int = 0  # tests the conventions recognised
    tests_edges: int = 0  # REACHES edges (the graph tests are read from) written by this run
    tests_reached: int = 0  # nodes some test reaches
    # edges linked to (or from) another indexed repository's nodes after this run
    cross_repo_edges: int = 0
    # external names another repository provides that stayed :External: several repositories
    # provide the package and the caller's declared dependencies choose none (or several)
    cross_repo_ambiguous: int = 0
    # other repositories' cross edges this run added, removed or moved, and the bindings it
    # kept although several repositories provide the package (graph/crossrepo.py, rule 3)
    cross_repo_changes: list[CrossEdgeChange] = field(default_factory=list)
    cross_repo_kept: list[CrossEdgeKept] = field(default_factory=list)
    # the folder the repository was indexed from before this run moved it (`move=True`)
    moved_from: str | None = None
    # what went wrong without spoiling the graph (the incremental state could not be saved)
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> RepositorySummary:
        """This run's figures for the whole repository, for the next run's state."""
        return RepositorySummary(
            files=self.files_total,
            modules=self.modules,
            symbols=self.symbols,
            edges=Counter(self.edges),
            unresolved_calls=self.unresolved_calls,
            unresolved_kinds=Counter(self.unresolved_kinds),
            languages=dict(self.languages),
            tests=self.tests,
            tests_reached=self.tests_reached,
            project_issues=dict(self.project_issues),
        )

    def unchanged(self, summary: RepositorySummary) -> None:
        """Report a run that found nothing changed since the run `summary` is of."""
        self.mode = "incremental"
        self.files_total = self.files_unchanged = summary.files
        self.modules, self.symbols = summary.modules, summary.symbols
        self.edges = Counter(summary.edges)
        self.unresolved_calls = summary.unresolved_calls
        self.unresolved_kinds = Counter(summary.unresolved_kinds)
        self.languages = dict(summary.languages)
        self.tests, self.tests_reached = summary.tests, summary.tests_reached
        self.project_issues = dict(summary.project_issues)
        self.parse_issues.update(summary.project_issues)

    def skipped_counts(self) -> list[tuple[str, int]]:
        """(reason, files) for the files this run skipped, most files first: what a closing
        report leads with ("2 generated (protoc header), 1 bundle (*.umd.*)")."""
        counts = Counter(s.reason for s in self.skipped)
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())

    def as_dict(self) -> dict[str, object]:
        return {
            "repo": self.repo,
            "root": self.root,
            "moved_from": self.moved_from,
            "mode": self.mode,
            "files": {
                "total": self.files_total,
                "parsed": self.files_parsed,
                "unchanged": self.files_unchanged,
                "removed": self.files_removed,
                "relinked": self.files_relinked,
                "skipped": len(self.skipped),
            },
            "modules": self.modules,
            "symbols": self.symbols,
            "nodes_written": self.nodes_written,
            "nodes_deleted": self.nodes_deleted,
            "edges_written": self.edges_written,
            "edges_deleted": self.edges_deleted,
            "edges": dict(sorted(self.edges.items())),
            "tests": {
                "recognised": self.tests,
                "reach_edges_written": self.tests_edges,
                "nodes_reached": self.tests_reached,
            },
            "cross_repo": {
                "edges": self.cross_repo_edges,
                "ambiguous": self.cross_repo_ambiguous,
                "changes": [change.as_dict() for change in self.cross_repo_changes],
                "kept": [kept.as_dict() for kept in self.cross_repo_kept],
            },
            "unresolved_calls": self.unresolved_calls,
            "unresolved_kinds": dict(sorted(self.unresolved_kinds.items())),
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "skipped_dirs": [{"path": s.path, "reason": s.reason} for s in self.skipped_dirs],
            "parse_issues": {
                path: [{"line": i.line, "message": i.message} for i in issues]
                for path, issues in sorted(self.parse_issues.items())
            },
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "write_seconds": {k: round(v, 3) for k, v in sorted(self.write_seconds.items())},
            "embedded": self.embedded,
            "embedding_cache_hits": self.embedding_cache_hits,
            "vectors_pending": self.vectors_pending,
            "embed_command": self.embed_command,
            "languages": {name: counts.as_dict() for name, counts in self.languages.items()},
            "warnings": list(self.warnings),
        }


def cross_repo_warnings(report: IngestReport) -> list[str]:
    """What `report`'s run did to other repositories' cross edges, as warnings for a command
    whose answer is not the report (`diff`, which updates the graph first; MCP's `index`)."""
    said = [f"{report.repo} moved from {report.moved_from}"] if report.moved_from else []
    said += [
        f"other repositories' cross edges changed: {change.describe()}"
        for change in report.cross_repo_changes
    ]
    said += [f"ambiguous package: {kept.describe()}" for kept in report.cross_repo_kept]
    return said
