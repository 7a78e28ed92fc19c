"""Walk a repository: choose source files, skip what must not be indexed, say why.

Honours .gitignore files (every level) and .git/info/exclude (`gitignore.py`: linear time);
skips virtualenvs, build, cache and VCS directories; never follows a directory symlink (so no
loops and nothing outside the root) and skips file symlinks; opens nothing but regular files
(`regular.py`); skips binary, oversized and unreadable files, and names that are not UTF-8.
Every skipped file is reported with its reason. A file's language comes from its suffix, or
for a file without one from its shebang line (`#!/usr/bin/env node`); project files that the
linkers read (`tsconfig.json`, `package.json`) are collected apart.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..model import SkippedFile, SourceFile
from .gitignore import IgnoreRules
from .reading import SourceBytes, content_skip, read_source
from .regular import file_type, open_regular

__all__ = [
    "DEFAULT_MAX_BYTES", "SKIP_DIRS", "WalkResult", "language_of", "shown_path", "walk_changes",
    "walk_repository",
]  # fmt: skip

DEFAULT_MAX_BYTES = 1_000_000

SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".bzr", "__pycache__", ".venv", "venv", ".env", "env",
        "node_modules", "build", "dist", ".tox", ".nox", ".eggs", ".mypy_cache",
        ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints", "site-packages", ".idea",
        ".vscode", ".cache", "htmlcov", ".next", ".nuxt", ".svelte-kit", ".turbo",
        "bower_components", ".yarn", ".pnpm-store",
        # build output and vendored dependencies (Cargo's and Maven's `target/`, Go's
        # `vendor/`, Gradle's `.gradle/`): never the repository's own code, and a copy of its
        # dependencies would outweigh it
        "target", "vendor", ".gradle",
    }
)  # fmt: skip
# a `coverage/` folder is skipped when it holds a coverage report (coverage.py's own sources
# live in a `coverage/` package)
_COVERAGE_REPORT = ("lcov.info", "coverage-final.json", "lcov-report", "clover.xml")
_SHEBANG = re.compile(rb"^#![ \t]*(\S+)(?:[ \t]+(?:-\S+[ \t]+)*(\S+))?")


@dataclass
class WalkResult:
    files: list[SourceFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    skipped_dirs: list[SkippedFile] = field(default_factory=list)
    project: list[SourceFile] = field(default_factory=list)  # tsconfig.json, package.json, …


def language_of(
    absolute: str,
    name: str,
    languages: Mapping[str, str],
    interpreters: Mapping[str, str] | None,
) -> str | None:
    """The language of a file: by suffix, else (no suffix) by the interpreter of its shebang."""
    suffix = os.path.splitext(name)[1]
    if suffix:
        return languages.get(suffix)
    if not interpreters:
        return None
    try:
        with open_regular(absolute) as handle:
            first = handle.readline(256)
    except OSError:  # not a regular file (a FIFO, a device): `_check_file` says why
        return None
    match = _SHEBANG.match(first)
    if match is None:
        return None
    program = os.path.basename(match.group(1).decode("utf-8", "replace"))
    if program == "env" and match.group(2):
        program = match.group(2).decode("utf-8", "replace")
    return interpreters.get(program.rstrip("0123456789.") or program)


def _matcher(patterns: frozenset[str]) -> Callable[[str], bool]:
    """A test for file names matching any of `patterns` (shell-style: `tsconfig.*.json`)."""
    if not patterns:
        return lambda _name: False
    expression = re.compile("|".join(fnmatch.translate(p) for p in sorted(patterns)))
    return lambda name: expression.match(name) is not None


# build-output names that are also ordinary package names: Go's toolchain writes nothing into
# the source tree, so such a folder holding `.go` files is a package (urfave/cli's
# `internal/build`), not build output
_SOURCE_NAMED = frozenset({"build", "dist", "env", "target"})


def _holds_go(path: str) -> bool:
    try:
        with os.scandir(path) as entries:
            return any(e.name.endswith(".go") and e.is_file(follow_symlinks=False) for e in entries)
    except OSError:
        return False


def is_build_output(path: str, name: str) -> bool:
    """Whether the folder `name` at `path` is one of SKIP_DIRS' build, cache, VCS or virtualenv
    folders: a folder so named that holds Go code is a package instead (the walker and the
    watcher decide alike)."""
    return name in SKIP_DIRS and not (name in _SOURCE_NAMED and _holds_go(path))


def _is_skipped_dir(path: str, name: str) -> str | None:
    if is_build_output(path, name):
        return "build, cache, VCS or virtualenv directory"
    if name == "coverage" and any(os.path.exists(os.path.join(path, f)) for f in _COVERAGE_REPORT):
        return "coverage report"
    if name.endswith(".egg-info"):
        return "packaging metadata"
    if os.path.exists(os.path.join(path, "pyvenv.cfg")):
        return "virtualenv"
    return None


# the files in a folder that can hold ignore rules for it, and the entries that lead to them
_IGNORE_FILES = ((".gitignore",), (".git", "info", "exclude"))
_IGNORE_ENTRIES = frozenset(parts[0] for parts in _IGNORE_FILES)
_MAX_IGNORE_BYTES = 1_000_000


def _load_ignore(directory: str) -> IgnoreRules | None:
    lines: list[str] = []
    for parts in _IGNORE_FILES:
        try:  # a FIFO is no rule file, nor a link (git 2.32+ does not follow one either)
            with open_regular(os.path.join(directory, *parts)) as f:
                text = f.read(_MAX_IGNORE_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        lines.extend(text.splitlines())
    if not lines:
        return None
    return IgnoreRules.from_lines(lines)


class _IgnoreStack:
    """The .gitignore files in force in each folder; each applies relative to its own folder.

    Folders are repository-relative POSIX strings ("" is the root): string slicing instead of
    pathlib keeps the walk of a 3,000-file repository well under a second.
    """

    def __init__(self, root: Path) -> None:
        self.root = str(root)
        self._chains: dict[str, list[tuple[str, IgnoreRules]]] = {}
        self._without_rules: set[str] = set()  # folders listed with no ignore file in them

    def listed(self, folder: str, names: Iterable[str]) -> None:
        """What a walk found in `folder`: it need not look for ignore files that are not
        there (a walk of Django's 1,900 folders would otherwise try 3,800 missing files)."""
        if _IGNORE_ENTRIES.isdisjoint(names):
            self._without_rules.add(folder)

    def chain(self, folder: str) -> list[tuple[str, IgnoreRules]]:
        found = self._chains.get(folder)
        if found is None:
            parent = folder.rpartition("/")[0] if folder else None
            found = list(self.chain(parent)) if parent is not None else []
            if folder not in self._without_rules:
                spec = _load_ignore(os.path.join(self.root, folder) if folder else self.root)
                if spec is not None:
                    found.append((folder, spec))
            self._chains[folder] = found
        return found

    def ignored(self, relative: str, folder: str, *, is_dir: bool, walked: bool = True) -> bool:
        """Whether a rule in force in `folder` ignores `relative`; `walked`: the walk went
        into every folder on its way, so none of them is ignored."""
        suffix = "/" if is_dir else ""
        for base, spec in self.chain(folder):
            inside = relative[len(base) + 1 :] if base else relative
            if spec.match_file(inside + suffix, parents=not walked):
                return True
        return False


def walk_repository(
    root: Path,
    *,
    languages: Mapping[str, str],
    max_bytes: int = DEFAULT_MAX_BYTES,
    on_file: Callable[[str], None] | None = None,
    known: Mapping[str, tuple[int, int, str]] | None = None,
    interpreters: Mapping[str, str] | None = None,
    project_files: frozenset[str] = frozenset(),
    read_sources: bool = True,
) -> WalkResult:
    """Every source file under `root` whose suffix is in `languages` (suffix -> language), or,
    without a suffix, whose shebang names a program in `interpreters` (program -> language);
    files whose name matches a pattern of `project_files` (`tsconfig.*.json`) go to
    `WalkResult.project`.

    `known` maps paths to (size, mtime_ns, sha256) from a previous walk: a file whose size and
    modification time are unchanged is not read again. Without `read_sources`, no source file
    is read (its `sha256` is ""): a run that parses every file reads and hashes each as it
    parses it, once.
    """
    root = root.resolve()
    result = WalkResult()
    ignores = _IgnoreStack(root)
    is_project = _matcher(project_files)
    for folder, files in _walk_dirs(root, ignores, result):
        for name in sorted(files):
            relative = f"{folder}/{name}" if folder else name
            if is_project(name):
                if not ignores.ignored(relative, folder, is_dir=False):
                    project = _source_file(root, relative, "", max_bytes, None)
                    if isinstance(project, SourceFile):
                        result.project.append(project)
                continue
            language = language_of(os.path.join(root, relative), name, languages, interpreters)
            if language is None:
                continue
            if ignores.ignored(relative, folder, is_dir=False):
                continue
            source = _source_file(
                root, relative, language, max_bytes, known, read_bytes=read_sources
            )
            if isinstance(source, SkippedFile):
                result.skipped.append(source)
                continue
            result.files.append(source)
            if on_file is not None:
                on_file(relative)
    return result


def walk_changes(
    root: Path,
    *,
    languages: Mapping[str, str],
    known: Mapping[str, tuple[int, int, str]],
    changed: Iterable[str],
    max_bytes: int = DEFAULT_MAX_BYTES,
    interpreters: Mapping[str, str] | None = None,
    project_files: frozenset[str] = frozenset(),
) -> WalkResult | None:
    """The walk's result when only `changed` paths (absolute or relative) may differ from
    `known` — what a file watcher reports. None when a full walk is needed: a .gitignore, a
    project file or a directory changed, or a file appeared in a folder no known file lives
    in. (The result's `project` list is empty: a full walk collects project files.)"""
    root = root.resolve()
    folders = {path.rpartition("/")[0] for path in known}
    touched: set[str] = set()
    for raw in changed:
        candidate = Path(raw)
        if candidate.is_absolute():
            if not candidate.is_relative_to(root):
                continue
            candidate = candidate.relative_to(root)
        relative = candidate.as_posix()
        if candidate.name == ".gitignore" or _matcher(project_files)(candidate.name):
            return None
        if (root / candidate).is_dir():
            return None
        if relative in known:
            pass  # known: its language is the one it had (a shebang may be gone with it)
        elif language_of(str(root / candidate), candidate.name, languages, interpreters) is None:
            continue
        if relative.rpartition("/")[0] not in folders:
            return None
        touched.add(relative)
    result = WalkResult()
    for relative, (size, mtime_ns, sha256) in known.items():
        if relative in touched:
            continue
        absolute = os.path.join(root, relative)
        language = language_of(absolute, relative.rpartition("/")[2], languages, interpreters)
        if language is not None:
            result.files.append(SourceFile(relative, absolute, sha256, size, language, mtime_ns))
    ignores = _IgnoreStack(root)
    for relative in sorted(touched):
        if not (root / relative).exists() and not (root / relative).is_symlink():
            continue  # deleted
        folder = relative.rpartition("/")[0]
        if ignores.ignored(relative, folder, is_dir=False, walked=False):
            continue
        language = language_of(
            str(root / relative), relative.rpartition("/")[2], languages, interpreters
        )
        if language is None:
            continue
        source = _source_file(root, relative, language, max_bytes, None)
        if isinstance(source, SkippedFile):
            result.skipped.append(source)
        else:
            result.files.append(source)
    result.files.sort(key=lambda source: source.path)
    return result


def _source_file(
    root: Path,
    relative: str,
    language: str,
    max_bytes: int,
    known: Mapping[str, tuple[int, int, str]] | None,
    *,
    read_bytes: bool = True,
) -> SourceFile | SkippedFile:
    if not _is_utf8(relative):
        return SkippedFile(shown_path(relative), _NOT_UTF8)
    absolute = os.path.join(root, relative)
    previous = known.get(relative) if known else None
    if previous is not None:
        try:
            info = os.lstat(absolute)
        except OSError:
            info = None
        if (
            info is not None
            and stat.S_ISREG(info.st_mode)
            and (info.st_size, info.st_mtime_ns) == previous[:2]
        ):
            return SourceFile(
                relative, absolute, previous[2], info.st_size, language, info.st_mtime_ns
            )
    checked = _check_file(Path(absolute), relative, max_bytes, read_bytes=read_bytes)
    if isinstance(checked, SkippedFile):
        return checked
    return SourceFile(
        path=relative,
        absolute=absolute,
        sha256=checked.sha256,
        size=checked.size,
        language=language,
        mtime_ns=checked.mtime_ns,
    )


def _walk_dirs(
    root: Path, ignores: _IgnoreStack, result: WalkResult
) -> Iterator[tuple[str, list[str]]]:
    """(folder relative to root, file names) for every folder worth entering."""
    stack = [""]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(os.path.join(root, folder) if folder else root))
        except OSError as exc:
            result.skipped_dirs.append(
                SkippedFile(folder or ".", f"unreadable directory: {exc.strerror}")
            )
            continue
        ignores.listed(folder, (entry.name for entry in entries))
        files: list[str] = []
        subdirs: list[str] = []
        for entry in entries:
            relative = f"{folder}/{entry.name}" if folder else entry.name
            if entry.is_symlink():
                if _points_to_directory(entry):
                    result.skipped_dirs.append(
                        SkippedFile(relative, "symlinked directory (not followed)")
                    )
                else:
                    files.append(entry.name)  # reported by _check_file
                continue
            if entry.is_dir(follow_symlinks=False):
                reason = _is_skipped_dir(entry.path, entry.name)
                if reason is None and not _is_utf8(entry.name):
                    reason, relative = _NOT_UTF8, shown_path(relative)
                if reason is not None:
                    result.skipped_dirs.append(SkippedFile(relative, reason))
                elif not ignores.ignored(relative, folder, is_dir=True):
                    subdirs.append(relative)
            else:  # regular files, and FIFOs, sockets, devices: _check_file says why it skips
                files.append(entry.name)
        yield folder, files
        stack.extend(sorted(subdirs, reverse=True))


# A file name that is not UTF-8 reaches Python with lone surrogates (PEP 383), which no
# Neo4j string can hold: one such name made a whole repository impossible to index (issue 57,
# item 5). It is skipped and reported, its bytes shown as escapes.
_NOT_UTF8 = "name is not valid UTF-8"


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_path(path: str) -> str:
    """`path` printable and storable: the bytes of a name that is not UTF-8 as `\\xe9`."""
    if _is_utf8(path):
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _points_to_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows the link
    except OSError:  # a loop of links: reported as a file by _check_file
        return False


def _check_file(
    path: Path, relative: str, max_bytes: int, *, read_bytes: bool = True
) -> SkippedFile | SourceBytes:
    """The file's bytes (with their hash and the file's stamps), or the reason it is skipped;
    without `read_bytes`, what its `lstat` says (no bytes, no hash)."""
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
    if not stat.S_ISREG(info.st_mode):
        # opening a FIFO blocks until a writer comes: `index --watch` hung forever on one
        return SkippedFile(relative, f"not a regular file ({file_type(info.st_mode)})")
    if info.st_size > max_bytes:
        return SkippedFile(relative, f"larger than {max_bytes} bytes ({info.st_size})")
    if not read_bytes:  # the parse stage reads and judges it: once a run (issue 57)
        return SourceBytes(b"", "", info.st_size, info.st_mtime_ns)
    try:
        read = read_source(path, max_bytes)
    except OSError as exc:
        return SkippedFile(relative, f"unreadable: {exc.strerror}")
    reason = content_skip(read.data, max_bytes)
    return read if reason is None else SkippedFile(relative, reason)
