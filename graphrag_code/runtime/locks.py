"""An exclusive lock between processes on one machine: `flock` on a file.

The kernel releases it when the holder exits, however it exits, so a crashed process never
leaves a stale lock behind. Used while the managed server starts (one start per data folder)
and while a repository is indexed (one run per repository).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .folders import PRIVATE_FILE_MODE

__all__ = ["exclusive_lock", "is_locked"]


@contextmanager
def exclusive_lock(path: Path, *, on_wait: Callable[[], None] | None = None) -> Iterator[bool]:
    """Hold an exclusive lock on `path` (created if missing) for the `with` block.

    When another process holds it, `on_wait` is called once, then this blocks until the
    other process lets go. Yields whether it had to wait.
    """
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
    try:
        waited = False
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waited = True
            if on_wait is not None:
                on_wait()
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield waited
    finally:
        os.close(descriptor)  # closing the only descriptor releases the lock


def is_locked(path: Path) -> bool:
    """True while some holder (another process, or this one through another `with`) holds
    the lock on `path`."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return False  # never locked: the file is created by the first holder
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)
    return False
