"""Where a change comes from: a revision range, the working tree, the index, or a patch.

Runs `git` (never a shell) to get the diff and both sides of each changed file. The new side
of a revision range or of the index is read from git; of the working tree and of a patch, from
disk. A patch's old side is rebuilt from its hunks when the file on disk is its new side.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigurationError, InvalidArgumentError
from ..parsing.regular import read_regular
from ..runtime.git import GitError, git
from .unified import FileDiff, Hunk, old_text_from, parse_unified_diff

__all__ = ["DiffSpec", "FileChange", "git_root", "read_changes"]

# paths relative to the folder asked about (the indexed root may be a subfolder of the tree)
_DIFF = [
    "diff", "--no-color", "--no-ext-diff", "-M", "--relative", "--src-prefix=a/",
    "--dst-prefix=b/",
]  # fmt: skip


@dataclass(frozen=True)
class DiffSpec:
    """What to compare. `revisions`: `A..B` (A against B), `A...B` (their merge base
    against B) or one revision (against the working tree, as `git diff REV` does);
    `worktree`: HEAD against the working tree, untracked files included; `staged`: HEAD
    against the index; `patch`: the text of a unified diff whose new side is on disk."""

    revisions: str | None = None
    worktree: bool = False
    staged: bool = False
    patch: str | None = None

    def __post_init__(self) -> None:
        chosen = sum(
            (self.revisions is not None, self.worktree, self.staged, self.patch is not None)
        )
        if chosen > 1:
            raise InvalidArgumentError(
                "choose one of a revision range, --worktree, --staged or a patch"
            )
        if self.revisions is not None and any(
            part.startswith("-") for part in self.revisions.replace("...", "..").split("..")
        ):
            # git would read such a part as an option (`--output=FILE` writes a file)
            raise InvalidArgumentError(
                f"{self.revisions!r} is not a revision range (a revision never starts with '-')"
            )

    @property
    def label(self) -> str:
        if self.revisions is not None:
            return self.revisions
        if self.staged:
            return "staged changes (HEAD..index)"
        if self.patch is not None:
            return "patch"
        return "working tree (HEAD..worktree)"


@dataclass(frozen=True)
class FileChange:
    """One changed file with both sides' text (None where a side does not exist or cannot be
    read) and whether the new side is what the working tree holds (what the graph indexes)."""

    diff: FileDiff
    old_text: str | None
    new_text: str | None
    new_on_disk: bool


def _git(root: Path, *args: str, check: bool = True) -> str:
    """git's output ("" when it failed and `check` is off); its failures as the errors of
    `diff`: git missing is a configuration to fix, anything else an argument that cannot
    work."""
    try:
        done = git(root, *args, timeout=120, check=check)
    except GitError as error:
        if error.reason == "git missing":
            raise ConfigurationError(
                "git is not installed: `diff` needs it (or a patch)"
            ) from error
        if error.reason == "timeout":
            raise InvalidArgumentError(f"git {' '.join(args)} took over 120 s") from error
        message = error.stderr.strip().splitlines()
        raise InvalidArgumentError(
            f"git {' '.join(args)}: {message[-1] if message else 'failed'}"
        ) from error
    return done.stdout if done.ok else ""


def git_root(path: Path) -> Path | None:
    """The top folder of the git working tree holding `path`, None outside one (or without
    git)."""
    try:
        done = git(path, "rev-parse", "--show-toplevel", timeout=30, check=False)
    except GitError:
        return None
    top = done.stdout.strip()
    return Path(top) if done.ok and top else None


def _disk(root: Path, path: str | None) -> str | None:
    """The text of `path` under `root`; None when it is missing, unreadable or outside `root`
    (a patch naming `../x` or an absolute path never reads beyond the repository)."""
    if path is None:
        return None
    try:
        file = (root / path).resolve()
        if not file.is_relative_to(root.resolve()):
            return None
        return read_regular(file).decode("utf-8", "replace")  # a FIFO there must not block
    except OSError:
        return None


def _show(root: Path, revision: str, path: str | None) -> str | None:
    if path is None:
        return None
    text = _git(root, "show", f"{revision}:./{path}", check=False)
    return text if text or _exists(root, revision, path) else None


def _exists(root: Path, revision: str, path: str) -> bool:
    return git(root, "cat-file", "-e", f"{revision}:./{path}", timeout=30, check=False).ok


def _range(root: Path, revisions: str) -> tuple[str, str | None]:
    """(old revision, new revision or None for the working tree)."""
    if "..." in revisions:
        left, right = revisions.split("...", 1)
        right = right or "HEAD"
        _verify(root, left or "HEAD")
        _verify(root, right)
        base = _git(root, "merge-base", left or "HEAD", right).strip()
        return base, right
    if ".." in revisions:
        left, right = revisions.split("..", 1)
        return left or "HEAD", right or "HEAD"
    return revisions, None


def _verify(root: Path, revision: str) -> None:
    """Fail in words when `revision` names no commit: `HEAD~1` in a one-commit repository
    printed `git rev-parse --verify --quiet HEAD~1^{commit}: failed` (issue 55)."""
    if _git(root, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}", check=False):
        return
    count = _git(root, "rev-list", "--count", "HEAD", check=False).strip()
    commits = "no commit yet" if not count else f"{count} commit{'' if count == '1' else 's'}"
    raise InvalidArgumentError(
        f"revision {revision!r} does not exist in {root} (its history has {commits}); "
        "name an existing commit, branch or tag, or diff the working tree (`--worktree`)"
    )


def read_changes(root: Path, spec: DiffSpec) -> list[FileChange]:
    """The changed files of `spec`, relative to `root` (a git working tree unless `spec` is a
    patch), each with both sides' text."""
    if spec.patch is not None:
        return _patch_changes(root, spec.patch)
    if git_root(root) is None:
        raise InvalidArgumentError(f"{root} is not in a git working tree (give a patch instead)")
    if spec.staged:
        old_rev, new_rev, args = "HEAD", ":", ["--cached", "HEAD"]
    elif spec.revisions is not None:
        old_rev, maybe_new = _range(root, spec.revisions)
        for revision in (old_rev, maybe_new):
            if revision is not None:
                _verify(root, revision)
        new_rev = maybe_new or ""
        args = [old_rev, maybe_new] if maybe_new is not None else [old_rev]
    else:
        old_rev, new_rev, args = "HEAD", "", ["HEAD"]
    diffs = parse_unified_diff(_git(root, *_DIFF, "-U0", *args, "--"))
    if spec.worktree:
        known = {d.new_path for d in diffs}
        untracked = _git(root, "ls-files", "--others", "--exclude-standard", "-z").split("\0")
        diffs.extend(_added(root, path) for path in untracked if path and path not in known)
    changes = []
    for diff in diffs:
        old_text = _show(root, old_rev, diff.old_path)
        if new_rev == "":
            new_text = _disk(root, diff.new_path)
        elif new_rev == ":":
            new_text = _show(root, "", diff.new_path) if diff.new_path else None
        else:
            new_text = _show(root, new_rev, diff.new_path)
        on_disk = new_text is not None and new_text == _disk(root, diff.new_path)
        changes.append(FileChange(diff, old_text, new_text, on_disk or diff.new_path is None))
    return changes


def _added(root: Path, path: str) -> FileDiff:
    """An untracked file as an added file (every line added)."""
    text = _disk(root, path) or ""
    count = len(text.splitlines())

    lines = tuple(("+", line) for line in text.splitlines())
    return FileDiff(None, path, (Hunk(0, 0, 1, count, lines),) if count else ())


def _patch_changes(root: Path, patch: str) -> list[FileChange]:
    diffs = parse_unified_diff(patch)
    if not diffs:
        raise InvalidArgumentError("the patch holds no file diff (expected a unified diff)")
    changes = []
    for diff in diffs:
        on_disk = _disk(root, diff.new_path)
        if diff.new_path is None:
            lines = [t for h in diff.hunks for tag, t in h.lines if tag != "+"]
            changes.append(FileChange(diff, "\n".join(lines) + "\n", None, True))
            continue
        old_text: str | None = None
        if on_disk is not None and diff.old_path is not None:
            old_text = old_text_from(on_disk, diff)
        matches = on_disk is not None and (diff.old_path is None or old_text is not None)
        changes.append(FileChange(diff, old_text, on_disk if matches else None, matches))
    return changes
