"""Walk a repository: choose source files, skip what must not be indexed, say why.

Honours .gitignore files (every level) and .git/info/exclude; skips virtualenvs, build, cache
and VCS directories; never follows a directory symlink (so no loops and nothing outside the
root) and skips file symlinks; skips binary, oversized and unreadable files. Every skipped
file is reported with its reason.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from ..model import SkippedFile, SourceFile

__all__ = ["DEFAULT_MAX_BYTES", "SKIP_DIRS", "WalkResult", "walk_repository"]

DEFAULT_MAX_BYTES = 1_000_000

SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".bzr", "__pycache__", ".venv", "venv", ".env", "env",
        "node_modules", "build", "dist", ".tox", ".nox", ".eggs", ".mypy_cache",
        ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints", "site-packages", ".idea",
        ".vscode", ".cache", "htmlcov",
    }
)  # fmt: skip


@dataclass
class WalkResult:
    files: list[SourceFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    skipped_dirs: list[SkippedFile] = field(default_factory=list)


def _is_skipped_dir(path: Path, name: str) -> str | None:
    if name in SKIP_DIRS:
        return "build, cache, VCS or virtualenv directory"
    if name.endswith(".egg-info"):
        return "packaging metadata"
    if (path / "pyvenv.cfg").exists():
        return "virtualenv"
    return None


def _load_ignore(directory: Path) -> pathspec.GitIgnoreSpec | None:
    lines: list[str] = []
    for candidate in (directory / ".gitignore", directory / ".git" / "info" / "exclude"):
        try:
            lines.extend(candidate.read_text(encoding="utf-8", errors="replace").splitlines())
        except OSError:
            continue
    if not lines:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines)


class _IgnoreStack:
    """The .gitignore files in force at one directory: each applies relative to its folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._specs: dict[Path, pathspec.GitIgnoreSpec | None] = {}

    def spec(self, directory: Path) -> pathspec.GitIgnoreSpec | None:
        if directory not in self._specs:
            self._specs[directory] = _load_ignore(directory)
        return self._specs[directory]

    def ignored(self, path: Path, *, is_dir: bool) -> bool:
        directory = path.parent
        while True:
            spec = self.spec(directory)
            if spec is not None:
                relative = path.relative_to(directory).as_posix() + ("/" if is_dir else "")
                if spec.match_file(relative):
                    return True
            if directory == self.root:
                return False
            directory = directory.parent


def _read_limited(path: Path, max_bytes: int) -> bytes:
    with path.open("rb") as handle:
        return handle.read(max_bytes + 1)


def walk_repository(
    root: Path,
    *,
    languages: dict[str, str],
    max_bytes: int = DEFAULT_MAX_BYTES,
    on_file: Callable[[str], None] | None = None,
) -> WalkResult:
    """Every source file under `root` whose suffix is in `languages` (suffix -> language)."""
    root = root.resolve()
    result = WalkResult()
    ignores = _IgnoreStack(root)
    for directory, files in _walk_dirs(root, ignores, result):
        for name in sorted(files):
            path = directory / name
            relative = path.relative_to(root).as_posix()
            language = languages.get(path.suffix)
            if language is None:
                continue
            if ignores.ignored(path, is_dir=False):
                continue
            skipped = _check_file(path, relative, max_bytes)
            if isinstance(skipped, SkippedFile):
                result.skipped.append(skipped)
                continue
            result.files.append(
                SourceFile(
                    path=relative,
                    absolute=str(path),
                    sha256=hashlib.sha256(skipped).hexdigest(),
                    size=len(skipped),
                    language=language,
                )
            )
            if on_file is not None:
                on_file(relative)
    return result


def _walk_dirs(
    root: Path, ignores: _IgnoreStack, result: WalkResult
) -> Iterator[tuple[Path, list[str]]]:
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as exc:
            result.skipped_dirs.append(
                SkippedFile(_relative(root, directory), f"unreadable directory: {exc.strerror}")
            )
            continue
        files: list[str] = []
        subdirs: list[Path] = []
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                if _points_to_directory(entry):
                    result.skipped_dirs.append(
                        SkippedFile(_relative(root, path), "symlinked directory (not followed)")
                    )
                else:
                    files.append(entry.name)  # reported by _check_file
                continue
            if entry.is_dir(follow_symlinks=False):
                reason = _is_skipped_dir(path, entry.name)
                if reason is None and ignores.ignored(path, is_dir=True):
                    continue
                if reason is not None:
                    result.skipped_dirs.append(SkippedFile(_relative(root, path), reason))
                    continue
                subdirs.append(path)
            elif entry.is_file(follow_symlinks=False):
                files.append(entry.name)
        yield directory, files
        stack.extend(sorted(subdirs, reverse=True))


def _points_to_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows the link
    except OSError:  # a loop of links: reported as a file by _check_file
        return False


def _relative(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix() or "."


def _check_file(path: Path, relative: str, max_bytes: int) -> SkippedFile | bytes:
    """The file's bytes, or the reason it is skipped."""
    try:
        info = path.lstat()
    except OSError as exc:
        return SkippedFile(relative, f"cannot stat: {exc.strerror}")
    if stat.S_ISLNK(info.st_mode):
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return SkippedFile(relative, "broken or looping symlink")
        return SkippedFile(relative, f"symlink to {target} (not followed)")
    if info.st_size > max_bytes:
        return SkippedFile(relative, f"larger than {max_bytes} bytes ({info.st_size})")
    try:
        data = _read_limited(path, max_bytes)
    except OSError as exc:
        return SkippedFile(relative, f"unreadable: {exc.strerror}")
    if len(data) > max_bytes:
        return SkippedFile(relative, f"larger than {max_bytes} bytes")
    if b"\x00" in data[:8192]:
        return SkippedFile(relative, "binary file (NUL bytes)")
    return data
