"""`open_regular`: the one way the walker and the parse stages open a repository's files.

Only regular files are ever opened (issue 57, item 3): an extension-less FIFO was opened by
the shebang sniff before the regular-file check and hung `index` forever, and `index /dev`
with it. `lstat` comes first, so a FIFO, socket or device is never opened at all (opening a
device can act on it: a watchdog starts its timer); the descriptor is checked again, in case
the entry was swapped between (a FIFO then cannot block: O_NONBLOCK; a link cannot lead
elsewhere: O_NOFOLLOW).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = ["file_type", "open_regular", "read_regular"]

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NOCTTY", 0)
)


def file_type(mode: int) -> str:
    """What a non-regular entry is, for the skip reason ("FIFO", "character device", …)."""
    for test, name in (
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISDIR, "directory"),
        (stat.S_ISLNK, "symlink"),
    ):
        if test(mode):
            return name
    return "special file"


def open_regular(path: str | Path) -> BinaryIO:
    """`path` opened for reading in binary when it is a regular file; else `OSError`."""
    before = os.lstat(path)
    if not stat.S_ISREG(before.st_mode):
        raise OSError(errno.EINVAL, f"not a regular file ({file_type(before.st_mode)})")
    descriptor = os.open(path, _FLAGS)
    opened = os.fstat(descriptor)
    if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (
        before.st_dev,
        before.st_ino,
    ):
        os.close(descriptor)
        raise OSError(errno.EINVAL, "not a regular file (it changed while being opened)")
    return os.fdopen(descriptor, "rb")


def read_regular(path: str | Path, limit: int = -1) -> bytes:
    """The bytes of the regular file `path` (at most `limit`; -1: all); else `OSError`."""
    with open_regular(path) as handle:
        return handle.read(limit)
