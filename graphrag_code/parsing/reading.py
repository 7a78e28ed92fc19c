"""Read a source file so that what a run records about it describes the bytes it used.

A file edited while an index runs (issue 57) must never leave a parse or a skip filed under a
hash it was not computed from: the next run trusts that hash and keeps the stale record for
good. So the walk and the parse stage each take the sha256, size and modification time from
the very bytes they read, through one open of a regular file, and both judge the content with
the same rule (`content_skip`). A modification time that could still change without changing
(an edit in the same clock tick as the read, "racily clean" in git's words) is not recorded:
the next walk hashes the file again instead of trusting it.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

from .regular import open_regular

__all__ = ["RACY_NS", "SourceBytes", "content_skip", "read_source"]

# a modification time this close to the read is not trusted as a sign the content is unchanged
# (file systems stamp with a coarse clock; 2 s covers FAT's granularity too)
RACY_NS = 2_000_000_000


@dataclass(frozen=True, slots=True)
class SourceBytes:
    """The bytes read from a file (at most `max_bytes + 1`), their sha256 and the file's size
    and modification time as they were during the read (`mtime_ns` 0: not to be trusted)."""

    data: bytes
    sha256: str
    size: int
    mtime_ns: int


def read_source(path: str | Path, max_bytes: int) -> SourceBytes:
    """The file's bytes, if it is a regular file (not a link, FIFO or device: those raise
    OSError, never opened: `regular.open_regular`)."""
    started = time.time_ns()
    with open_regular(path) as handle:
        before = os.fstat(handle.fileno())
        data = handle.read(max_bytes + 1)
        after = os.fstat(handle.fileno())
    steady = (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns)
    trusted = steady and started - after.st_mtime_ns >= RACY_NS
    return SourceBytes(
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        mtime_ns=after.st_mtime_ns if trusted else 0,
    )


def content_skip(data: bytes, max_bytes: int) -> str | None:
    """Why bytes read by `read_source` are not indexed, or None: the walk and the parse stage
    judge with this one rule, so a file changed between them gets the verdict of its bytes."""
    if len(data) > max_bytes:
        return f"larger than {max_bytes} bytes"
    if b"\x00" in data[:8192]:
        return "binary file (NUL bytes)"
    return None
