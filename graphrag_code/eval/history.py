"""Questions from a repository's own git history: a commit subject -> the files it changed.

A commit subject ("Reject negative quantities in restock_item") is a question a developer could
ask, and the Python files the commit changed are where its answer lives. Scoring is at file
level: each search hit counts for the file (Module node) it is defined in.

    questions = build_questions("path/to/repo")
    with CodeGraph() as graph:
        result = run_history_benchmark(questions, graph)
    result.ablations[0].summary.overall.means["acc@5"]

Which tree is searched (`Revision`):

* PARENT (the default): each question is asked of the repository as it was just before the
  commit (its first parent), so the code the commit wrote is not there to give the answer
  away. Files the commit created did not exist yet and are not part of the answer; a commit
  that only creates files is skipped. Bias: it measures "where does this change go", which
  favours fixes to existing code over new features. Cost: one incremental index per parent.
* HEAD: every question is asked of one index of HEAD. Cheap, but it leaks: the code a commit
  added, often with the very names its subject uses, is there to be matched, while files that
  later commits rewrote have drifted away from the subject. Expect higher numbers than PARENT.

Skipped commits, each with its reason: merges, reverts, releases and version bumps,
formatting / lint / typo commits (by subject, or a diff that changes only whitespace),
subjects of fewer than `min_words` words, commits changing more than `max_files` files of any
kind, and commits with no Python file to find in the searched tree.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import Any

from ..codegraph import CodeGraph
from ..errors import ConfigurationError
from ..graph.queries import load_query
from ..ingest.pipeline import valid_repo_name
from ..progress import ProgressReporter
from ..retrieval.search import LEGS, Hit, SearchOptions
from .metrics import Aggregate, accuracy_at_k, aggregate, recall_at_k
from .report import bar_chart, markdown_table, save_figure
from .run import RunLog, git_commit

__all__ = [
    "ABLATIONS",
    "KS",
    "Ablation",
    "AblationResult",
    "Commit",
    "FileChange",
    "HistoryOptions",
    "HistoryQuestion",
    "HistoryResult",
    "HistoryRunLog",
    "QuestionOutcome",
    "QuestionSet",
    "Revision",
    "SkipReason",
    "SkippedCommit",
    "answer_paths",
    "build_questions",
    "export_tree",
    "file_ranking",
    "history_markdown",
    "metric_names",
    "only_whitespace",
    "parse_log",
    "read_commits",
    "run_history_benchmark",
    "score_files",
    "select_ablations",
    "skip_reason",
    "write_history_report",
]

KS = (1, 5, 10)
"""Cut-offs of Acc@k; Recall and MRR are taken at the deepest."""


class Revision(Enum):
    """Which tree a question is asked of (see the module docstring for the biases)."""

    PARENT = "parent"
    HEAD = "head"


class SkipReason(Enum):
    MERGE = "merge"
    REVERT = "revert"
    RELEASE = "release or version bump"
    FORMATTING = "formatting, lint or typo fix"
    WHITESPACE = "whitespace-only diff"
    UNINFORMATIVE = "subject too short"
    HUGE = "too many files"
    NO_PYTHON = "no Python file changed"
    ROOT = "root commit (no parent to search)"
    ONLY_NEW_FILES = "only creates files (none existed before)"
    GONE = "changed files no longer exist"
    NOT_INDEXED = "changed files not indexed"


# -- what a commit says -----------------------------------------------------------------------
# Subjects are matched conservatively: "Release the lock before closing" is a real change, so
# "release" counts only before a version number or alone.
_REVERT = re.compile(r"^\s*(revert|reverts|reverted)\b", re.IGNORECASE)
_RELEASE = re.compile(
    r"""^\s*(
        (release|releasing|released|tag|tagging)\b[\s:]*(v?\d|$)
      | bump\b
      | v?\d+(\.\d+)+\b
      | (prepare|preparing|prep)\b.*\brelease\b
      | chore\(release\)
    )
    | \brelease\s+v?\d+(\.\d+)+
    | \b(bump|bumped|bumping|update|updated|increment|incremented|set)\s+(the\s+)?version\b
    | \bversion\s+(bump|to\s+v?\d)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_FORMATTING = re.compile(
    r"""
      \b(black|isort|ruff|flake8|pylint|autopep8|yapf|autoflake|pyupgrade|pre-commit|prettier)\b
    | ^\s*(re)?format\b | \breformat | \bformatting\b
    | ^\s*style\s*[:(] | \bcode\s*style\b | \bpep\s?8\b
    | \blint(s|ing|er|ers)?\b
    | \btypos?\b | \bspelling\b | \bwhitespace\b | \btrailing\s+spaces?\b
    """,
    re.IGNORECASE | re.VERBOSE,
)
_WORD = re.compile(r"\w+")
_VERSION_FILES = frozenset({"version.py", "_version.py", "__version__.py", "__about__.py"})
_SOURCE_SUFFIX = ".py"


@dataclass(frozen=True)
class FileChange:
    """One file a commit changed: `status` is git's A(dded), M(odified), D(eleted), T(ype)."""

    status: str
    path: str


@dataclass(frozen=True)
class Commit:
    sha: str
    parents: tuple[str, ...]
    subject: str
    changes: tuple[FileChange, ...]

    @property
    def python_changes(self) -> tuple[FileChange, ...]:
        return tuple(c for c in self.changes if c.path.endswith(_SOURCE_SUFFIX))


@dataclass(frozen=True)
class HistoryQuestion:
    """A commit subject, the tree it is asked of, and the files that answer it."""

    commit: str
    revision: str
    """The commit whose tree is searched (the parent, or HEAD)."""
    text: str
    paths: tuple[str, ...]
    """Repository-relative POSIX paths of the Python files the commit changed."""

    @property
    def id(self) -> str:
        return self.commit[:12]


@dataclass(frozen=True)
class SkippedCommit:
    commit: str
    subject: str
    reason: SkipReason


@dataclass(frozen=True)
class HistoryOptions:
    """Which commits become questions, and which tree they are asked of."""

    revision: Revision = Revision.PARENT
    max_questions: int | None = 50
    """The most recent commits that make questions; None: the whole history."""
    max_files: int = 10
    """Commits changing more files than this (of any kind) are skipped as too broad."""
    min_words: int = 3
    rev: str = "HEAD"
    """Where the history ends (a branch, tag or commit)."""

    def __post_init__(self) -> None:
        if self.max_questions is not None and self.max_questions < 1:
            raise ConfigurationError(f"max_questions must be >= 1, got {self.max_questions}")
        if self.max_files < 1:
            raise ConfigurationError(f"max_files must be >= 1, got {self.max_files}")
        if self.rev.startswith("-"):
            raise ConfigurationError(f"invalid revision {self.rev!r}")


@dataclass(frozen=True)
class QuestionSet:
    root: Path
    head: str
    options: HistoryOptions
    questions: tuple[HistoryQuestion, ...]
    """Newest first, like git log."""
    skipped: tuple[SkippedCommit, ...]

    def skipped_counts(self) -> dict[str, int]:
        return dict(Counter(s.reason.value for s in self.skipped).most_common())


def skip_reason(commit: Commit, *, max_files: int = 10, min_words: int = 3) -> SkipReason | None:
    """Why `commit` makes no question, judged on its parents, subject and file list alone."""
    subject = commit.subject
    if len(commit.parents) > 1:
        return SkipReason.MERGE
    if _REVERT.search(subject):
        return SkipReason.REVERT
    if _RELEASE.search(subject):
        return SkipReason.RELEASE
    if _FORMATTING.search(subject):
        return SkipReason.FORMATTING
    if len(_WORD.findall(subject)) < min_words:
        return SkipReason.UNINFORMATIVE
    if len(commit.changes) > max_files:
        return SkipReason.HUGE
    python = commit.python_changes
    if not python:
        return SkipReason.NO_PYTHON
    if all(PurePosixPath(c.path).name in _VERSION_FILES for c in python):
        return SkipReason.RELEASE
    return None


def answer_paths(
    commit: Commit, revision: Revision, existing: Collection[str] | None = None
) -> tuple[str, ...]:
    """The changed Python files present in the searched tree, sorted.

    At the parent that is every file the commit did not create; at HEAD, every file it did
    not delete that `existing` (HEAD's files) still holds.
    """
    if revision is Revision.PARENT:
        paths = {c.path for c in commit.python_changes if c.status != "A"}
    else:
        paths = {
            c.path
            for c in commit.python_changes
            if c.status != "D" and (existing is None or c.path in existing)
        }
    return tuple(sorted(paths))


# -- reading git --------------------------------------------------------------------------------
_RECORD, _FIELD = "\x1e", "\x1f"


def _git(root: Path, *args: str) -> str:
    # core.quotePath=false keeps non-ASCII paths as they are, so they match Module paths.
    command = ["git", "-c", "core.quotePath=false", "-C", str(root), *args]
    try:
        done = subprocess.run(
            command, capture_output=True, check=True, text=True, encoding="utf-8", errors="replace"
        )
    except FileNotFoundError as exc:
        raise ConfigurationError("git is not installed; the history benchmark reads git") from exc
    except subprocess.CalledProcessError as exc:
        raise ConfigurationError(
            f"`git {args[0]}` failed in {root}: {exc.stderr.strip() or exc}"
        ) from exc
    return done.stdout


def parse_log(text: str) -> list[Commit]:
    """Commits from `git log --name-status --format=<RS>%H<US>%P<US>%s` output."""
    commits: list[Commit] = []
    for record in text.split(_RECORD)[1:]:
        header, _, body = record.partition("\n")
        sha, parents, subject = header.split(_FIELD, 2)
        changes = []
        for line in body.splitlines():
            status, _, path = line.partition("\t")
            if status and path:
                changes.append(FileChange(status[:1], path))
        commits.append(Commit(sha, tuple(parents.split()), subject.strip(), tuple(changes)))
    return commits


def read_commits(root: Path, *, rev: str = "HEAD") -> list[Commit]:
    """Commits reachable from `rev`, newest first, with the files each changed.

    `--no-renames`: a rename is a deletion plus an addition, so at the parent the old path is
    the answer and at HEAD the new one.
    """
    text = _git(
        root, "log", "--topo-order", "--no-renames", "--name-status", "--no-color",
        f"--format={_RECORD}%H{_FIELD}%P{_FIELD}%s", rev, "--",
    )  # fmt: skip
    return parse_log(text)


def only_whitespace(root: Path, commit: Commit) -> bool:
    """True when the commit's Python changes vanish once whitespace and blank lines are
    ignored (`git show -w --ignore-blank-lines` prints no hunk)."""
    paths = [c.path for c in commit.python_changes]
    diff = _git(
        root, "--literal-pathspecs", "show", "--no-color", "--no-ext-diff", "--format=",
        "-w", "--ignore-blank-lines", commit.sha, "--", *paths,
    )  # fmt: skip
    return not any(line.startswith("@@") for line in diff.splitlines())


def _reason(
    root: Path, commit: Commit, options: HistoryOptions, existing: Collection[str] | None
) -> tuple[SkipReason | None, tuple[str, ...]]:
    reason = skip_reason(commit, max_files=options.max_files, min_words=options.min_words)
    if reason is not None:
        return reason, ()
    if options.revision is Revision.PARENT and not commit.parents:
        return SkipReason.ROOT, ()
    paths = answer_paths(commit, options.revision, existing)
    if not paths:
        gone = options.revision is Revision.HEAD
        return (SkipReason.GONE if gone else SkipReason.ONLY_NEW_FILES), ()
    if only_whitespace(root, commit):
        return SkipReason.WHITESPACE, ()
    return None, paths


def build_questions(root: str | Path, options: HistoryOptions | None = None) -> QuestionSet:
    """Walk the history back from `options.rev`, keeping the first `max_questions` commits
    that make good questions and recording why each other commit was skipped."""
    options = options or HistoryOptions()
    # paths in git's output are relative to the top of the work tree, whatever folder was given
    path = Path(_git(Path(root).resolve(), "rev-parse", "--show-toplevel").strip())
    head = _git(path, "rev-parse", "--verify", f"{options.rev}^{{commit}}")
    head = head.strip()
    existing: frozenset[str] | None = None
    if options.revision is Revision.HEAD:
        existing = frozenset(_git(path, "ls-tree", "-r", "-z", "--name-only", head).split("\0"))
    kept: list[HistoryQuestion] = []
    skipped: list[SkippedCommit] = []
    for commit in read_commits(path, rev=head):
        if options.max_questions is not None and len(kept) >= options.max_questions:
            break
        reason, paths = _reason(path, commit, options, existing)
        if reason is not None:
            skipped.append(SkippedCommit(commit.sha, commit.subject, reason))
            continue
        revision = commit.parents[0] if options.revision is Revision.PARENT else head
        kept.append(HistoryQuestion(commit.sha, revision, commit.subject, paths))
    return QuestionSet(path, head, options, tuple(kept), tuple(skipped))


def _safe_member(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    """tarfile's "data" filter, but a member it refuses (a symlink out of the tree, say) is
    left out instead of failing the whole export."""
    try:
        return tarfile.data_filter(member, path)
    except tarfile.FilterError:
        return None


def export_tree(root: Path, revision: str, target: Path) -> None:
    """Replace `target` with the files of `revision` (`git archive`: the repository's index,
    working tree and refs are never touched)."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    command = ["git", "-C", str(root), "archive", "--format=tar", revision]
    failure = ""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        stdout, stderr = process.stdout, process.stderr
        assert stdout is not None
        assert stderr is not None
        try:
            with tarfile.open(fileobj=stdout, mode="r|") as archive:
                archive.extractall(target, filter=_safe_member)
        except tarfile.TarError as exc:  # git printed nothing, or half an archive
            failure = str(exc)
        error = stderr.read().decode("utf-8", "replace").strip()
    if process.returncode != 0 or failure:
        raise ConfigurationError(f"`git archive {revision}` failed in {root}: {error or failure}")


# -- scoring -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ablation:
    """A retrieval configuration to compare: which legs run, and the centrality prior."""

    name: str
    legs: tuple[str, ...]
    centrality_prior: float = 0.0

    def options(self, k: int) -> SearchOptions:
        return SearchOptions(k=k, legs=self.legs, centrality_prior=self.centrality_prior)


ABLATIONS: tuple[Ablation, ...] = (
    Ablation("full-text", ("text",)),
    Ablation("vector", ("vector",)),
    Ablation("vector+text", ("vector", "text")),
    Ablation("hybrid", LEGS),
    Ablation("hybrid+prior", LEGS, centrality_prior=1.0),
)
"""Each leg alone, RRF of the two, the graph leg added, then PageRank as a tie-breaking prior."""


def select_ablations(names: Sequence[str]) -> tuple[Ablation, ...]:
    """The named ablations of `ABLATIONS`, in the order given."""
    known = {a.name: a for a in ABLATIONS}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ConfigurationError(f"unknown ablations {unknown}; choose from {list(known)}")
    return tuple(known[name] for name in names)


def metric_names(ks: Sequence[int] = KS) -> list[str]:
    """Column order for tables: Acc@k (any file), Acc_all@k (every file), Recall, MRR."""
    deepest = max(ks)
    return [
        *(f"acc@{k}" for k in ks),
        *(f"acc_all@{k}" for k in ks),
        f"recall@{deepest}",
        f"mrr@{deepest}",
    ]


def file_ranking(hits: Sequence[Hit], modules: Mapping[str, str]) -> list[str]:
    """The file (Module id, looked up by path) of each hit, in rank order; a hit in no known
    file keeps its own id, so it can never match."""
    return [modules.get(hit.path, hit.id) for hit in hits]


def score_files(
    ranking: Sequence[str], relevant: Collection[str], ks: Sequence[int] = KS
) -> dict[str, float]:
    """File-level scores of one question, cut at k *hits* (not k distinct files).

    acc@k: some answer file is among the files of the top k hits; acc_all@k: all of them are
    (LocAgent's strict Acc@k); recall@K and mrr@K at the deepest cut-off K, by hit rank.
    """
    wanted = set(relevant)
    scores = {f"acc@{k}": 1.0 if wanted.intersection(ranking[:k]) else 0.0 for k in ks}
    scores.update({f"acc_all@{k}": accuracy_at_k(ranking[:k], wanted, k) for k in ks})
    deepest = max(ks)
    scores[f"recall@{deepest}"] = recall_at_k(ranking[:deepest], wanted, deepest)
    first = next((rank for rank, f in enumerate(ranking[:deepest], 1) if f in wanted), None)
    scores[f"mrr@{deepest}"] = 1.0 / first if first else 0.0
    return scores


@dataclass(frozen=True)
class QuestionOutcome:
    """One question under one ablation: its answer files, the hits, and the scores."""

    question: HistoryQuestion
    relevant: tuple[str, ...]
    hits: tuple[Hit, ...]
    files: tuple[str, ...]
    scores: Mapping[str, float]
    seconds: float

    @property
    def category(self) -> str:
        return "single-file" if len(self.relevant) == 1 else "multi-file"


@dataclass(frozen=True)
class AblationResult:
    ablation: Ablation
    outcomes: tuple[QuestionOutcome, ...]
    summary: Aggregate


@dataclass(frozen=True)
class HistoryResult:
    repo: str
    questions: QuestionSet
    ablations: tuple[AblationResult, ...]
    unindexed: tuple[SkippedCommit, ...]
    ks: tuple[int, ...] = KS
    seconds: Mapping[str, float] = field(default_factory=dict)

    @property
    def scored(self) -> int:
        return self.ablations[0].summary.overall.queries if self.ablations else 0

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (`results`: ablation -> metric -> mean)."""
        skipped = Counter(self.questions.skipped_counts())
        skipped.update(s.reason.value for s in self.unindexed)
        first = self.ablations[0].summary if self.ablations else None
        return {
            "benchmark": "history",
            "repo": self.repo,
            "source": str(self.questions.root),
            "head": self.questions.head,
            "revision": self.questions.options.revision.value,
            "max_files": self.questions.options.max_files,
            "questions": self.scored,
            "categories": {
                name: s.queries for name, s in (first.by_category.items() if first else ())
            },
            "skipped": dict(skipped.most_common()),
            "metrics": metric_names(self.ks),
            "results": {
                a.ablation.name: {m: round(v, 6) for m, v in a.summary.overall.means.items()}
                for a in self.ablations
            },
            "by_category": {
                a.ablation.name: {
                    category: {m: round(v, 6) for m, v in summary.means.items()}
                    for category, summary in a.summary.by_category.items()
                }
                for a in self.ablations
            },
            "seconds": {name: round(value, 3) for name, value in self.seconds.items()},
        }


class HistoryRunLog(RunLog):
    """A `RunLog` for history runs: one pass per ablation (a `run` line, a `query` line per
    question with its file-level hits, an `evaluation` line with the means)."""

    def write_ablation(self, result: AblationResult, *, config: Mapping[str, Any]) -> str:
        run_id = uuid.uuid4().hex[:12]
        ablation = result.ablation
        records: list[Mapping[str, Any]] = [
            {
                "type": "run",
                "run_id": run_id,
                "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "config": {
                    **config,
                    "ablation": ablation.name,
                    "legs": list(ablation.legs),
                    "centrality_prior": ablation.centrality_prior,
                },
                "git": git_commit(),
                **self.context,
            }
        ]
        for outcome in result.outcomes:
            question = outcome.question
            records.append(
                {
                    "type": "query",
                    "run_id": run_id,
                    "query_id": question.id,
                    "text": question.text,
                    "commit": question.commit,
                    "revision": question.revision,
                    "category": outcome.category,
                    "relevant": list(outcome.relevant),
                    "hits": [
                        {"id": hit.id, "file": file, "ranks": dict(hit.ranks)}
                        for hit, file in zip(outcome.hits, outcome.files, strict=True)
                    ],
                    "timings_ms": {"search": round(outcome.seconds * 1000, 3)},
                }
            )
        summary = result.summary
        records.append(
            {
                "type": "evaluation",
                "run_id": run_id,
                "label": ablation.name,
                "queries": summary.overall.queries,
                "means": {k: round(v, 6) for k, v in summary.overall.means.items()},
                "by_category": {
                    category: {k: round(v, 6) for k, v in s.means.items()}
                    for category, s in summary.by_category.items()
                },
                "per_query": {o.question.id: dict(o.scores) for o in result.outcomes},
            }
        )
        self._append(records)
        return run_id


# -- running -------------------------------------------------------------------------------------
class _Silent:
    def stage(self, name: str, total: int | None = None) -> None:
        return None

    def advance(self, amount: int = 1) -> None:
        return None


def _module_ids(graph: CodeGraph, repo: str) -> dict[str, str]:
    rows = graph.client.read(load_query("relations/repository_modules"), {"repo": repo})
    return {str(row["path"]): str(row["id"]) for row in rows}


def _ask(
    graph: CodeGraph,
    repo: str,
    question: HistoryQuestion,
    relevant: tuple[str, ...],
    modules: Mapping[str, str],
    ablation: Ablation,
    ks: Sequence[int],
) -> QuestionOutcome:
    started = time.perf_counter()
    result = graph.search(question.text, repo=repo, options=ablation.options(max(ks)))
    seconds = time.perf_counter() - started
    files = file_ranking(result.hits, modules)
    scores = score_files(files, relevant, ks)
    return QuestionOutcome(question, relevant, tuple(result.hits), tuple(files), scores, seconds)


def _by_revision(questions: Sequence[HistoryQuestion]) -> dict[str, list[HistoryQuestion]]:
    """Questions grouped by the tree they are asked of, oldest first, so each incremental
    index differs from the previous one by about one commit."""
    grouped: dict[str, list[HistoryQuestion]] = {}
    for question in reversed(questions):
        grouped.setdefault(question.revision, []).append(question)
    return grouped


def run_history_benchmark(
    questions: QuestionSet,
    graph: CodeGraph,
    *,
    repo: str | None = None,
    ablations: Sequence[Ablation] = ABLATIONS,
    ks: Sequence[int] = KS,
    log: HistoryRunLog | None = None,
    progress: ProgressReporter | None = None,
) -> HistoryResult:
    """Index each searched tree as repository `repo` (default `<folder>-history`, so a normal
    index of the same folder is left alone), ask every question under every ablation, score.

    Trees are exported with `git archive` into a temporary folder and indexed incrementally
    one after the other; the last one stays in the graph for inspection.
    """
    if not ablations or not ks or min(ks) < 1:
        raise ConfigurationError("need at least one ablation and cut-offs k >= 1")
    name = valid_repo_name(repo or f"{questions.root.name}-history")
    progress = progress or _Silent()
    grouped = _by_revision(questions.questions)
    outcomes: dict[str, list[QuestionOutcome]] = {a.name: [] for a in ablations}
    unindexed: list[SkippedCommit] = []
    seconds = {"index": 0.0, "search": 0.0}
    # One tree: the index stages are worth showing; many: one bar over the questions.
    index_progress = progress if len(grouped) == 1 else None
    with tempfile.TemporaryDirectory(prefix="graphrag-code-history-") as scratch:
        tree = Path(scratch) / questions.root.name
        if index_progress is None:
            progress.stage("index + search", len(questions.questions))
        for revision, asked in grouped.items():
            started = time.perf_counter()
            export_tree(questions.root, revision, tree)
            graph.index(tree, name, progress=index_progress)
            modules = _module_ids(graph, name)
            seconds["index"] += time.perf_counter() - started
            if index_progress is not None:
                progress.stage("search", len(asked))
            started = time.perf_counter()
            for question in asked:
                relevant = tuple(sorted({modules[p] for p in question.paths if p in modules}))
                if relevant:
                    for ablation in ablations:
                        outcome = _ask(graph, name, question, relevant, modules, ablation, ks)
                        outcomes[ablation.name].append(outcome)
                else:
                    reason = SkipReason.NOT_INDEXED
                    unindexed.append(SkippedCommit(question.commit, question.text, reason))
                progress.advance()
            seconds["search"] += time.perf_counter() - started
    results = []
    for ablation in ablations:
        done = outcomes[ablation.name]
        per_query = {o.question.id: o.scores for o in done}
        summary = aggregate(per_query, {o.question.id: o.category for o in done})
        results.append(AblationResult(ablation, tuple(done), summary))
    result = HistoryResult(name, questions, tuple(results), tuple(unindexed), tuple(ks), seconds)
    if log is not None:
        config = {key: value for key, value in result.as_dict().items() if key in _CONFIG_KEYS}
        for ablation_result in results:
            log.write_ablation(ablation_result, config={**config, "ks": list(ks)})
    return result


_CONFIG_KEYS = frozenset({"benchmark", "repo", "source", "head", "revision", "max_files"})


# -- reporting -----------------------------------------------------------------------------------
def _first_rank(outcome: QuestionOutcome) -> str:
    wanted = set(outcome.relevant)
    rank = next((r for r, file in enumerate(outcome.files, 1) if file in wanted), None)
    return str(rank) if rank else "–"


def history_markdown(result: HistoryResult, *, command: str | None = None) -> str:
    """The report: what was asked, the means per ablation (all questions, then per category),
    and each question with the hit rank of its first answer file under each ablation."""
    questions = result.questions
    where = (
        "each commit's parent"
        if questions.options.revision is Revision.PARENT
        else f"HEAD ({questions.head[:12]})"
    )
    skipped = ", ".join(f"{reason} {n}" for reason, n in result.as_dict()["skipped"].items())
    columns = metric_names(result.ks)
    lines = [
        f"## Git-history questions: {questions.root.name}" + (f", `{command}`" if command else ""),
        "",
        f"{result.scored} questions (commit subject -> the Python files it changed), searched "
        f"at {where} as repository `{result.repo}`; HEAD {questions.head[:12]}. "
        f"Skipped: {skipped or 'none'}.",
        "",
        "acc@k: a changed file (or a symbol in it) is among the top k hits; acc_all@k: every "
        "changed file is; recall and MRR by hit rank.",
        "",
    ]
    overall = {a.ablation.name: dict(a.summary.overall.means) for a in result.ablations}
    lines += [markdown_table(overall, columns=columns, row_label="ablation", title="All"), ""]
    categories = sorted({c for a in result.ablations for c in a.summary.by_category})
    if len(categories) == 1:
        categories = []  # the same numbers as "All"
    for category in categories:
        scores = {
            a.ablation.name: dict(a.summary.by_category[category].means)
            for a in result.ablations
            if category in a.summary.by_category
        }
        size = next(iter(result.ablations)).summary.by_category[category].queries
        title = f"{category} ({size} questions)"
        lines += [markdown_table(scores, columns=columns, row_label="ablation", title=title), ""]
    names = [a.ablation.name for a in result.ablations]
    lines += [
        "### Rank of the first changed file, per question",
        "",
        "| commit | subject | files | " + " | ".join(names) + " |",
        "|---|---|---:|" + "---:|" * len(names),
    ]
    by_question: dict[str, dict[str, QuestionOutcome]] = {}
    for ablation in result.ablations:
        for outcome in ablation.outcomes:
            by_question.setdefault(outcome.question.id, {})[ablation.ablation.name] = outcome
    for question_id, outcomes in by_question.items():
        first = next(iter(outcomes.values()))
        subject = first.question.text.replace("|", "\\|")
        ranks = [_first_rank(outcomes[name]) if name in outcomes else "–" for name in names]
        lines.append(
            f"| {question_id[:8]} | {subject} | {len(first.relevant)} | " + " | ".join(ranks) + " |"
        )
    return "\n".join(lines) + "\n"


def write_history_report(
    result: HistoryResult,
    out: Path,
    *,
    command: str | None = None,
    run_log: Path | None = None,
    plot: bool = True,
) -> list[Path]:
    """`history-<folder>-<revision>.md`, `.json` (the summary) and `.png` (the means per
    ablation) in `out`; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    questions = result.questions
    stem = out / f"history-{questions.root.name}-{questions.options.revision.value}"
    markdown, summary = stem.with_suffix(".md"), stem.with_suffix(".json")
    markdown.write_text(history_markdown(result, command=command), encoding="utf-8")
    data = {**result.as_dict(), "command": command, "run_log": run_log.name if run_log else None}
    summary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    written = [markdown, summary]
    if plot and result.ablations:
        scores = {a.ablation.name: dict(a.summary.overall.means) for a in result.ablations}
        at = "at parent" if questions.options.revision is Revision.PARENT else "at HEAD"
        title = f"{questions.root.name}: {result.scored} history questions ({at})"
        figure = bar_chart(scores, columns=metric_names(result.ks), title=title)
        written.append(save_figure(figure, stem.with_suffix(".png")))
    return written
