"""A repository name is bound to the folder it was indexed from.

The graph records each repository's root (`:Repository.root`, the resolved folder). Indexing
or diffing a name from another folder used to move the name there without a word (issue 55:
`diff` in a git copy wrote the copy's code into the graph, and `index` from the original
moved it back), so now `index`, `diff`, `watch` and the MCP tools that index refuse it with
`RepositoryRootError` (exit 2 in the CLI), before anything is written, unless the caller
moves the repository on purpose (`--move`, `move=True`). What counts as the same folder:

- paths compare resolved (`Path.resolve()`: absolute, symlinks followed, no `..`): a
  relative path, a symlink to the folder or a path through a symlinked parent is the same
  folder;
- where both exist, the same directory on disk (`os.path.samefile`: a bind mount, a
  case-insensitive file system) is the same folder;
- anything else is another folder: a copy, a second worktree or a moved checkout of the same
  git repository included. The graph describes one folder's files, and which one must not
  change silently; the refusal says when the recorded folder is gone (a moved checkout) or
  the new one holds the commit the graph was built from (a copy).

A repository without a recorded root (not indexed yet) binds to the first folder indexed.
Nothing new is stored: the root has always been on the node, so old graphs need no reindex.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import RepositoryRootError
from ..graph.client import Neo4jClient
from ..graph.writer import GraphWriter
from ..runtime.git import GitError, git

__all__ = ["bound_root", "git_head", "refusal", "same_folder"]


def same_folder(recorded: str, folder: Path) -> bool:
    """Whether `folder` is the folder the graph records as `recorded` (see the module
    docstring: resolved paths, else the same directory on disk)."""
    if str(folder) == recorded:
        return True
    old = Path(recorded)
    try:
        if old.resolve() == folder.resolve():
            return True
        return old.is_dir() and folder.is_dir() and os.path.samefile(old, folder)
    except (OSError, RuntimeError):  # a symlink loop, a folder gone between the checks
        return False


def refusal(
    repo: str, recorded: str, folder: Path, *, head: str | None = None
) -> RepositoryRootError:
    """The error for using `repo`, indexed from `recorded`, from `folder`: it names both
    folders and the two ways out. `head`: the commit the graph was built from."""
    why = ""
    if not Path(recorded).exists():
        why = f" ({recorded} no longer exists: if the checkout moved, move the repository)"
    elif head is not None and git_head(folder) == head:
        why = (
            " (it holds the commit the graph was built from: a copy or another checkout of "
            "the same git repository is still another folder)"
        )
    return RepositoryRootError(
        f"repository {repo!r} is indexed from {recorded}, not from {folder}{why}; nothing "
        f"was written. To index {folder} beside it, give it another name (`--repo NAME`); "
        f"to move {repo!r} to {folder} on purpose, pass `--move` (API: `move=True`).",
        repo=repo,
        recorded=recorded,
        folder=str(folder),
    )


def bound_root(client: Neo4jClient, repo: str, folder: Path, *, move: bool) -> str | None:
    """Check that `repo` may be indexed from the resolved `folder`: None when it is new or
    bound there, the recorded root when `move` rebinds it from there; otherwise raise
    `RepositoryRootError`."""
    stored = GraphWriter(client, repo).repository_state()
    recorded = stored.get("root") if stored is not None else None
    if not recorded or same_folder(recorded, folder):
        return None
    if move:
        return str(recorded)
    raise refusal(repo, str(recorded), folder, head=stored.get("head") if stored else None)


def git_head(root: Path) -> str | None:
    """The commit checked out at `root`; None outside a repository, without git, or when git
    takes over 5 s (the index does not wait on it)."""
    try:
        head = git(root, "rev-parse", "HEAD", timeout=5, check=False)
    except GitError:
        return None
    return head.stdout.strip() or None if head.ok else None
