"""A rich progress bar that implements the pipeline's `ProgressReporter`."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from .console import SafeConsole

__all__ = ["RichProgress", "say_waiting"]


class RichProgress:
    """One bar per stage; stages without a known total show a spinner."""

    def __init__(self, console: Console, *, enabled: bool = True) -> None:
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


def say_waiting(message: str) -> None:
    """Told when another process holds what this one needs (e.g. indexes the same repo);
    printed on stderr whether or not a progress bar shows."""
    SafeConsole(stderr=True).print(Text.assemble(("waiting: ", "yellow"), message))
