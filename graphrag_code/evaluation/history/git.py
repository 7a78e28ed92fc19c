"""Reading a repository's history with git: its commits, the questions they make, and the
tree of one revision. Every call runs git (`runtime.git`); nothing in the repository changes."""

from __future__ import annotations

import shutil
import tarfile
from collections.abc import Collection
from pathlib import Path
from typing import IO

from ...errors import ConfigurationError
from ...runtime.git import GitError, git, git_stream
from .questions import (
    Commit,
    FileChange,
    HistoryOptions,
    HistoryQuestion,
    QuestionSet,
    Revision,
    SkippedCommit,
    SkipReason,
    answer_paths,
    skip_reason,
)

__all__ = ["build_questions", "export_tree", "only_whitespace", "parse_log", "read_commits"]

_RECORD, _FIELD = "\x1e", "\x1f"


def _git(root: Path, *args: str) -> str:
    # no time limit: the log of a large history takes what it takes
    try:
        return git(root, *args, timeout=None).stdout
    except GitError as exc:
        if exc.reason == "git missing":
            raise ConfigurationError(
                "git is not installed; the history benchmark reads git"
            ) from exc
        raise ConfigurationError(
            f"`git {args[0]}` failed in {root}: {exc.stderr.strip() or exc}"
        ) from exc


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
    failure = ""

    def extract(stdout: IO[bytes]) -> None:
        nonlocal failure
        try:
            with tarfile.open(fileobj=stdout, mode="r|") as archive:
                archive.extractall(target, filter=_safe_member)
        except tarfile.TarError as exc:  # git printed nothing, or half an archive
            failure = str(exc)

    try:
        git_stream(root, "archive", "--format=tar", revision, read=extract)
    except GitError as exc:
        error = exc.stderr.strip() or failure or str(exc)
        raise ConfigurationError(f"`git archive {revision}` failed in {root}: {error}") from exc
    if failure:
        raise ConfigurationError(f"`git archive {revision}` failed in {root}: {failure}")
