"""Progress of long work, implementing the pipeline's `ProgressReporter`: a rich bar at a
terminal, plain periodic lines where stderr is a file or a pipe (CI logs, where a bar draws
nothing and `index` was silent for 100 s; issue 55)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from rich.text import Text

from ..text import printable
from .console import SafeConsole

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import TaskID

__all__ = ["PlainProgress", "RichProgress", "progress_for", "say_waiting"]


class RichProgress:
    """One bar per stage; stages without a known total show a spinner."""

    def __init__(self, console: Console, *, enabled: bool = True) -> None:
        from rich.progress import (  # with its tables, only when a command runs
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description:<16}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=False,
            disable=not enabled,
        )
        self._task: TaskID | None = None

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._finish_current()
        self._progress.stop()

    def _finish_current(self) -> None:
        if self._task is not None:
            task = self._progress.tasks[-1]
            if task.total is None:
                self._progress.update(
                    self._task, total=task.completed or 1, completed=task.completed or 1
                )
            else:
                self._progress.update(self._task, completed=task.total)

    def stage(self, name: str, total: int | None = None) -> None:
        self._finish_current()
        self._task = self._progress.add_task(name, total=total)

    def advance(self, amount: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, amount)


class PlainProgress:
    """One line when a stage starts, one at most every `every_s` seconds while it advances,
    and one when it ends: `parsing 1,200/3,400 (35%), 12 s`. Thread-safe (the pipeline
    advances its write stages from a writer thread)."""

    def __init__(
        self,
        stream: TextIO,
        *,
        every_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stream = stream
        self._every_s = every_s
        self._clock = clock
        self._lock = threading.Lock()
        self._name: str | None = None
        self._total: int | None = None
        self._done = 0
        self._started = 0.0
        self._said = 0.0

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        with self._lock:
            # an interrupted stage is not "done": its last count is what the log should show
            self._end("stopped" if error is not None else "done")

    def stage(self, name: str, total: int | None = None) -> None:
        with self._lock:
            self._end("done")
            self._name, self._total, self._done = name, total, 0
            self._started = self._said = self._clock()
            self._write(f"{name}: {total:,} to do" if total is not None else f"{name} …")

    def advance(self, amount: int = 1) -> None:
        with self._lock:
            if self._name is None:
                return
            self._done += amount
            now = self._clock()
            if now - self._said >= self._every_s:
                self._said = now
                self._write(f"{self._name} {self._count()}, {now - self._started:.0f} s")

    def _count(self) -> str:
        if self._total is None:
            return f"{self._done:,}"
        share = f" ({100 * self._done / self._total:.0f}%)" if self._total else ""
        return f"{self._done:,}/{self._total:,}{share}"

    def _end(self, how: str) -> None:
        if self._name is None:
            return
        seconds = self._clock() - self._started
        counted = f" {self._count()}" if self._done or self._total else ""
        self._write(f"{self._name} {how}{counted} in {seconds:.1f} s")
        self._name = None

    def _write(self, line: str) -> None:
        self._stream.write(printable(line) + "\n")
        self._stream.flush()


def progress_for(stream: TextIO, *, quiet: bool = False) -> RichProgress | PlainProgress:
    """The reporter for `stream` (stderr): a bar at a terminal, plain lines elsewhere, a
    silent bar when `quiet` (`--json`, whose readers often merge stderr into what they parse).
    """
    if not quiet and not stream.isatty():
        return PlainProgress(stream)
    return RichProgress(SafeConsole(file=stream), enabled=not quiet)


def say_waiting(message: str) -> None:
    """Told when another process holds what this one needs (e.g. indexes the same repo);
    printed on stderr whether or not a progress bar shows."""
    SafeConsole(stderr=True).print(Text.assemble(("waiting: ", "yellow"), message))
