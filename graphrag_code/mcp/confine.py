"""Where the MCP write tools may index (issue 57, item 2): a repository only at the root the
graph records for it, a new repository only inside a folder the server was started with
(`--allow-write ROOT…`).

A client once re-pointed a served repository at any folder (`{"path": "/some/secret", "repo":
"victim"}`), and `symbol` then served the planted files. Paths are resolved before the check
(`..` and symbolic links followed, `~` refused: the client's home is not the server's), and
the resolved folder is what gets indexed, so a link swapped after the check cannot widen it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import InvalidArgumentError

__all__ = ["check_write", "resolve_folder", "write_roots"]


def resolve_folder(text: str) -> Path:
    """The folder an MCP client named, absolute and resolved; `InvalidArgumentError` for a
    relative path, a `~` path or anything that is not an existing folder."""
    if text.startswith("~"):
        raise InvalidArgumentError(
            f"{text}: `~` is not expanded here; give the folder's absolute path"
        )
    path = Path(text)
    if not path.is_absolute():
        raise InvalidArgumentError(f"{text}: give the folder's absolute path")
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):  # missing, unreadable, a loop of links
        raise InvalidArgumentError(f"{text} is not a folder on the server's machine") from None
    if not resolved.is_dir():
        raise InvalidArgumentError(f"{text} is not a folder on the server's machine")
    return resolved


def write_roots(texts: Sequence[str | Path]) -> tuple[Path, ...]:
    """The `--allow-write` roots, resolved (the operator's own shell expands `~`)."""
    roots: list[Path] = []
    for text in texts:
        path = Path(text).expanduser()
        try:
            resolved = path.resolve(strict=True)
        except (OSError, RuntimeError):
            raise InvalidArgumentError(f"--allow-write {text}: no such folder") from None
        if not resolved.is_dir():
            raise InvalidArgumentError(f"--allow-write {text}: not a folder")
        roots.append(resolved)
    return tuple(roots)


def check_write(
    folder: Path, repo: str, *, recorded: Mapping[str, str | None], roots: Sequence[Path]
) -> None:
    """Refuse (`InvalidArgumentError`) to index the resolved `folder` as `repo` unless `repo`
    is indexed from exactly that folder (`recorded`: repository -> root the graph holds), or
    `repo` is new and `folder` lies inside one of `roots`."""
    root = recorded.get(repo)
    if root:
        if str(folder) == root:
            return
        raise InvalidArgumentError(
            f"repository {repo!r} is indexed from {root}; this server re-indexes it only from "
            f"there, not from {folder} (name another repository to index that folder)"
        )
    if any(folder.is_relative_to(allowed) for allowed in roots):
        return
    where = ", ".join(str(allowed) for allowed in roots)
    raise InvalidArgumentError(
        f"{folder} is outside the folders this server may index"
        + (f" ({where})" if where else "")
        + ": it only re-indexes repositories at their own roots; start it with "
        "`--allow-write ROOT` to let it index new repositories under ROOT"
    )
