"""What a commit says: which commits make questions, and which files answer them.

Subjects are matched conservatively, on the commit's parents, subject and file list alone;
reading git is `git.py`'s job.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

from ...errors import ConfigurationError

__all__ = [
    "Commit",
    "FileChange",
    "HistoryOptions",
    "HistoryQuestion",
    "QuestionSet",
    "Revision",
    "SkipReason",
    "SkippedCommit",
    "answer_paths",
    "skip_reason",
]


class Revision(Enum):
    """Which tree a question is asked of (the package docstring says what each one biases)."""

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


# Subjects are matched conservatively: "Release the lock before closing" is a real change, so
# "release" counts only before a version number or alone.
_REVERT = re.compile(r"^\s*(revert|reverts|reverted)\b", re.IGNORECASE)
_RELEASE = re.compile(
    r"""^\s*(
        (release|releasing|released|tag|tagging)\b[\s:]*(v?\d|$)
      | bump\b
      | v?\d+(\.\d+)+\b
      | version\s+v?\d+(\.\d+)+\b
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
