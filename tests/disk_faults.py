"""A disk that fills up or turns read-only, for the state writer only (issue 57, fault 9):
`monkeypatch.setattr(state_module, "os", BrokenDisk(errno.ENOSPC))` changes what that module
sees of `os`, and nothing else in the process."""

from __future__ import annotations

import errno
import os
from typing import Any

__all__ = ["BrokenDisk", "FillingFile"]


class FillingFile:
    """A file open for writing on a disk that fills after `room` bytes."""

    def __init__(self, handle: Any, room: int) -> None:
        self._handle, self._room = handle, room

    def write(self, data: bytes) -> int:
        self._room -= len(data)
        if self._room < 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return int(self._handle.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def __enter__(self) -> FillingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()


class BrokenDisk:
    """The `os` module as the state writer sees it, on a disk that is full (`fdopen` for
    writing gives files that fill) or read-only (`replace` fails)."""

    def __init__(self, fault: int, room: int = 4096) -> None:
        self._fault, self._room = fault, room

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def fdopen(self, descriptor: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = os.fdopen(descriptor, mode, *args, **kwargs)
        return (
            FillingFile(handle, self._room)
            if self._fault == errno.ENOSPC and "w" in mode
            else handle
        )

    def replace(self, source: Any, target: Any) -> None:
        if self._fault == errno.EROFS:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(target))
        os.replace(source, target)
