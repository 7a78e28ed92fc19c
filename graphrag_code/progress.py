"""How long work reports its progress: a protocol the CLI's progress bar implements."""

from __future__ import annotations

from typing import Protocol

__all__ = ["SILENT", "ProgressReporter"]


class ProgressReporter(Protocol):
    """Stages of work, each with an optional total, advanced as items are done."""

    def stage(self, name: str, total: int | None = None) -> None: ...
    def advance(self, amount: int = 1) -> None: ...


class _Silent:
    def stage(self, name: str, total: int | None = None) -> None:
        return None

    def advance(self, amount: int = 1) -> None:
        return None


SILENT: ProgressReporter = _Silent()
"""Reports nothing: the default wherever progress is optional."""
