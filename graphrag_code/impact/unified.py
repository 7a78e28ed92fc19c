"""Unified diffs (`git diff`, `diff -u`) as records: files, hunks, changed line numbers.

Pure: text in, records out. Reads git's extended headers (new / deleted file, rename from /
to, binary files) and plain `--- / +++` pairs; a line that fits no rule is ignored, so a patch
wrapped in an e-mail or a review comment still parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["FileDiff", "Hunk", "looks_like_diff", "old_text_from", "parse_unified_diff"]

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_GIT_HEADER = re.compile(r'^diff --git ("?)a/(.*?)\1 ("?)b/(.*)\3$')
Status = Literal["added", "deleted", "renamed", "modified"]


@dataclass(frozen=True)
class Hunk:
    """One hunk: `lines` keeps each line's tag (' ', '-', '+') and text."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: tuple[tuple[str, str], ...] = ()

    @property
    def removed(self) -> tuple[int, ...]:
        """Old line numbers of the removed lines."""
        found: list[int] = []
        line = self.old_start
        for tag, _text in self.lines:
            if tag == "-":
                found.append(line)
            if tag in " -":
                line += 1
        return tuple(found)

    @property
    def added(self) -> tuple[int, ...]:
        """New line numbers of the added lines."""
        found: list[int] = []
        line = self.new_start
        for tag, _text in self.lines:
            if tag == "+":
                found.append(line)
            if tag in " +":
                line += 1
        return tuple(found)


@dataclass(frozen=True)
class FileDiff:
    old_path: str | None  # None: the file is new
    new_path: str | None  # None: the file was deleted
    hunks: tuple[Hunk, ...] = ()
    binary: bool = False

    @property
    def status(self) -> Status:
        if self.old_path is None:
            return "added"
        if self.new_path is None:
            return "deleted"
        return "renamed" if self.old_path != self.new_path else "modified"

    @property
    def path(self) -> str:
        """The file's path on the new side (the old side for a deleted file)."""
        return self.new_path or self.old_path or ""

    @property
    def removed(self) -> tuple[int, ...]:
        return tuple(line for hunk in self.hunks for line in hunk.removed)

    @property
    def added(self) -> tuple[int, ...]:
        return tuple(line for hunk in self.hunks for line in hunk.added)


def looks_like_diff(text: str) -> bool:
    """True when `text` holds a unified diff (a question that is a change to review)."""
    return bool(re.search(r"^(diff --git |--- \S)", text, re.MULTILINE)) and bool(
        re.search(r"^@@ -\d+", text, re.MULTILINE) or "Binary files" in text
    )


def _path(raw: str) -> str | None:
    """A path of a `---` / `+++` line: None for /dev/null; git's a/ b/ prefixes and a
    timestamp after a tab removed, C-style quotes undone."""
    text = raw.split("\t", 1)[0].strip()
    if text.startswith('"') and text.endswith('"'):
        text = text[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
        text = text.encode("latin-1", "replace").decode("utf-8", "replace")
    if text == "/dev/null":
        return None
    if text[:2] in ("a/", "b/"):
        return text[2:]
    return text


class _Builder:
    def __init__(self) -> None:
        self.files: list[FileDiff] = []
        self.reset()

    def reset(self) -> None:
        self.old: str | None = None
        self.new: str | None = None
        self.hunks: list[Hunk] = []
        self.binary = False
        self.open = False
        self.new_file = False
        self.deleted_file = False

    def flush(self) -> None:
        if self.open and (self.old is not None or self.new is not None):
            old = None if self.new_file else self.old
            new = None if self.deleted_file else self.new
            self.files.append(FileDiff(old, new, tuple(self.hunks), self.binary))
        self.reset()

    def start(self, old: str | None, new: str | None) -> None:
        self.flush()
        self.open, self.old, self.new = True, old, new


def parse_unified_diff(text: str) -> list[FileDiff]:
    """The files of a unified diff with their hunks."""
    builder = _Builder()
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        header = _GIT_HEADER.match(line)
        if header:
            builder.start(header.group(2), header.group(4))
        elif line.startswith("new file mode"):
            builder.new_file = True
        elif line.startswith("deleted file mode"):
            builder.deleted_file = True
        elif line.startswith("rename from "):
            builder.old = line[len("rename from ") :]
        elif line.startswith("rename to "):
            builder.new = line[len("rename to ") :]
        elif line.startswith("Binary files ") and builder.open:
            builder.binary = True
        elif (
            line.startswith("--- ")
            and index + 1 < len(lines)
            and lines[index + 1].startswith("+++ ")
        ):
            old, new = _path(line[4:]), _path(lines[index + 1][4:])
            if not builder.open or builder.hunks:
                builder.start(old, new)
            else:
                builder.old, builder.new = old, new
            builder.new_file, builder.deleted_file = old is None, new is None
            index += 1
        elif (hunk := _HUNK.match(line)) and builder.open:
            index = _read_hunk(lines, index, hunk, builder)
            continue
        index += 1
    builder.flush()
    return builder.files


def _read_hunk(lines: list[str], index: int, match: re.Match[str], builder: _Builder) -> int:
    old_start, new_start = int(match.group(1)), int(match.group(3))
    old_count = int(match.group(2)) if match.group(2) is not None else 1
    new_count = int(match.group(4)) if match.group(4) is not None else 1
    body: list[tuple[str, str]] = []
    old_left, new_left = old_count, new_count
    index += 1
    while index < len(lines) and (old_left > 0 or new_left > 0):
        line = lines[index]
        tag = line[:1] or " "  # an empty line: a context line whose trailing space was lost
        if tag == "\\":
            index += 1
            continue
        if tag not in " -+":
            break
        body.append((tag, line[1:]))
        if tag in " -":
            old_left -= 1
        if tag in " +":
            new_left -= 1
        index += 1
    while index < len(lines) and lines[index].startswith("\\"):
        index += 1
    builder.hunks.append(Hunk(old_start, old_count, new_start, new_count, tuple(body)))
    return index


def old_text_from(new_text: str, diff: FileDiff) -> str | None:
    """The old side of a file from its new side and the diff's hunks (context and removed
    lines), or None when the new text does not match what the diff says it holds. Lines keep
    the new side's line endings (a removed line takes the file's first), so that the code of
    an unchanged function in a CRLF file hashes as it was indexed (num2words's `lang_PL.py`,
    BENCHMARKS §21, stop 67: rebuilt with LF, its functions read as changed since the
    coverage and lost the tests that ran them)."""
    new_lines = new_text.splitlines(keepends=True)
    ending = next((line[len(line.rstrip("\r\n")) :] for line in new_lines), "\n") or "\n"
    old: list[str] = []
    position = 0  # index into new_lines
    for hunk in diff.hunks:
        start = hunk.new_start - 1 if hunk.new_count else hunk.new_start
        if start < position or start > len(new_lines):
            return None
        old.extend(new_lines[position:start])
        position = start
        for tag, text in hunk.lines:
            if tag == "-":
                old.append(text + ending)
                continue
            if position >= len(new_lines) or new_lines[position].rstrip() != text.rstrip():
                return None
            if tag == " ":
                old.append(new_lines[position])
            position += 1
    old.extend(new_lines[position:])
    if old and not old[-1].endswith(("\n", "\r")):
        old[-1] += ending  # as before: the old side ends with a newline
    return "".join(old)
