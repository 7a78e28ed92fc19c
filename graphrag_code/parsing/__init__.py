"""Walk and parse repositories: the language-neutral core (walker, decoding, the parse pool,
tree-sitter helpers). Each language's parser lives in its folder under
`graphrag_code.languages`; the registry there decides which parser reads which file."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import NamedTuple

from ..model import ParsedFile, SkippedFile, SourceFile
from .base import ModuleName, SourceParser, imported_prefixes
from .reading import content_skip, read_source
from .walker import DEFAULT_MAX_BYTES, WalkResult, walk_repository

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ModuleName",
    "ParseBatch",
    "ParseJob",
    "ReadStamp",
    "SourceParser",
    "WalkResult",
    "decode_source",
    "imported_prefixes",
    "parse_files",
    "walk_repository",
]

_LONE_CR = re.compile(rb"\r(?!\n)")
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


@dataclass(frozen=True, slots=True)
class ParseJob:
    source: SourceFile
    module: ModuleName
    parser: type[SourceParser]  # a class: jobs are pickled to worker processes
    max_bytes: int = DEFAULT_MAX_BYTES  # a file grown past this since the walk is skipped


def decode_source(data: bytes) -> bytes | str:
    """UTF-8 bytes for the parser, or the reason the file cannot be read as text.

    Honours a UTF-8 BOM and PEP 263 coding declarations (first two lines). A lone CR (classic
    Mac line endings) becomes LF: Python and ECMAScript both end a line there, tree-sitter
    counts LF only, and every symbol of a CR-only file sat on line 1 (issue 57, item 15); one
    byte for one keeps every byte offset.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        for line in data.splitlines()[:2]:
            match = _CODING.match(line)
            if match:
                encoding = match.group(1).decode("ascii")
                try:
                    return _line_feeds(data.decode(encoding).encode("utf-8"))
                except (LookupError, UnicodeDecodeError) as inner:
                    return f"cannot decode as declared {encoding}: {inner}"
        return f"not UTF-8 (byte {exc.start}) and no coding declaration"
    return _line_feeds(data)


def _line_feeds(data: bytes) -> bytes:
    return _LONE_CR.sub(b"\n", data) if b"\r" in data else data


_PARSERS: dict[type[SourceParser], SourceParser] = {}


@dataclass(frozen=True, slots=True)
class ReadStamp:
    """What the parse stage read of a file: the sha256, size and modification time (0: not to
    be trusted) of the bytes its parse or skip was made from. A run records these, never what
    the walk saw earlier: the file may have changed in between (issue 57)."""

    sha256: str
    size: int
    mtime_ns: int


class ParseBatch(NamedTuple):
    parsed: list[ParsedFile]
    skipped: list[SkippedFile]
    read: dict[str, ReadStamp]  # path -> its stamp; a file that could not be read has none


def _parse_one(job: ParseJob) -> tuple[ParsedFile | SkippedFile, ReadStamp | None]:
    path = job.source.path
    try:
        read = read_source(job.source.absolute, job.max_bytes)
    except OSError as exc:
        return SkippedFile(path, f"unreadable: {exc.strerror}"), None
    stamp = ReadStamp(read.sha256, read.size, read.mtime_ns)
    reason = content_skip(read.data, job.max_bytes)
    if reason is not None:
        return SkippedFile(path, reason), None if len(read.data) > job.max_bytes else stamp
    decoded = decode_source(read.data)
    if isinstance(decoded, str):
        return SkippedFile(path, decoded), stamp
    parser = _PARSERS.get(job.parser)
    if parser is None:
        parser = _PARSERS[job.parser] = job.parser()
    reason = parser.skip_reason(path, decoded)
    if reason is not None:
        return SkippedFile(path, reason), stamp
    try:
        parsed = parser.parse(
            path=path,
            module=job.module.module,
            is_package=job.module.is_package,
            source=decoded,
            sha256=read.sha256,
        )
    except RecursionError:
        return SkippedFile(path, "too deeply nested to parse"), stamp
    return parsed, stamp


def parse_files(
    jobs: Sequence[ParseJob],
    *,
    workers: int = 1,
    on_done: Callable[[str], None] | None = None,
) -> ParseBatch:
    """Parse every job (in `workers` processes when > 1 and the batch is large)."""
    batch = ParseBatch([], [], {})
    results: Iterable[tuple[ParsedFile | SkippedFile, ReadStamp | None]]
    if workers > 1 and len(jobs) >= 64:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(_collect(pool.map(_parse_one, jobs, chunksize=16), on_done))
    else:
        results = _collect(map(_parse_one, jobs), on_done)
    for result, stamp in results:
        if isinstance(result, ParsedFile):
            batch.parsed.append(result)
        else:
            batch.skipped.append(result)
        if stamp is not None:
            batch.read[result.path] = stamp
    return batch


def _collect(
    results: Iterable[tuple[ParsedFile | SkippedFile, ReadStamp | None]],
    on_done: Callable[[str], None] | None,
) -> Iterable[tuple[ParsedFile | SkippedFile, ReadStamp | None]]:
    for result in results:
        if on_done is not None:
            on_done(result[0].path)
        yield result
