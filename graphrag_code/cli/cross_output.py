"""What an `index`, `diff` or `delete` did to other repositories' cross-repository edges, and a
repository moved to another folder: said in the table output (issue 55; `--json` carries the
same in the report's `cross_repo` and `moved_from`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `--help` imports this module and must not load the engine
    from rich.console import Console

    from ..graph.crossedges import CrossEdgeChange, CrossEdgeKept

__all__ = ["print_cross_changes", "print_moved"]


def print_cross_changes(
    console: Console, changes: Sequence[CrossEdgeChange], kept: Sequence[CrossEdgeKept] = ()
) -> None:
    """One line per repository and direction whose edges changed, then the ambiguous
    bindings kept (nothing when there are neither)."""
    if changes:
        total = sum(change.edges for change in changes)
        console.print(
            f"[yellow]changed {total} cross-repository edge(s) of other repositories:[/]",
            highlight=False,
        )
        for change in changes:
            console.print(f"  {change.describe()}", markup=False, highlight=False)
    if kept:
        console.print(
            "[yellow]kept where they were, several repositories providing the package:[/]",
            highlight=False,
        )
        for binding in kept:
            console.print(f"  {binding.describe()}", markup=False, highlight=False)


def print_moved(console: Console, repo: str, root: str, moved_from: str | None) -> None:
    if moved_from is not None:
        console.print(
            f"[yellow]moved:[/] {repo} is now indexed from {root} (was {moved_from})",
            highlight=False,
        )
