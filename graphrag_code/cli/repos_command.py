"""`graphrag-code repos`: what the graph holds. Each repository with the folder and commit it
was indexed from, when, its files, symbols and languages, whether its last run finished and
files changed on disk since, and whether its vectors are all there (issue 55: only the MCP
`repositories` tool told, and a misspelt `--repo` listed ~140 names instead)."""

from __future__ import annotations

import argparse
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .arguments import name_argument
from .engine import open_graph
from .output import print_json

if TYPE_CHECKING:
    from rich.console import Console

    from ..graph import RepositoryInfo, RepositorySize

__all__ = ["RepositoryRow", "describe", "register"]

State = Literal["complete", "indexing", "stale"]
Embeddings = Literal["present", "partial", "absent"]


def register(commands: Any) -> None:
    repos = commands.add_parser(
        "repos",
        help="what is indexed: folder, commit, when, size, languages, state, vectors",
        description="List what the graph holds. A repository is `indexing` when its last run "
        "was interrupted (or still runs), `stale` when source files changed on its folder "
        "since it was indexed.",
    )
    repos.add_argument(
        "name", nargs="?", metavar="NAME", type=name_argument, help="only this repository"
    )
    repos.add_argument(
        "--no-scan",
        action="store_true",
        help="do not look for files changed since indexing (each folder is walked otherwise)",
    )
    repos.add_argument("--json", action="store_true", help="machine-readable output")
    repos.set_defaults(handler=_repos)


@dataclass(frozen=True)
class RepositoryRow:
    """One repository as `repos` shows it (and `--json` prints it)."""

    name: str
    root: str | None
    commit: str | None  # the git commit indexed (None outside git)
    indexed_at: str | None  # ISO 8601, UTC
    files: int
    symbols: int
    languages: dict[str, int]  # files per language, most first
    status: str  # the last run's: "complete", or "indexing" (running or interrupted)
    # "indexing" as above; "stale": source files changed on disk since; else "complete"
    state: State
    changed_files: int | None  # None: not scanned, or the folder is not on this machine
    changed_sample: tuple[str, ...]
    nodes: int  # code nodes, each of which should have a vector
    vectors: int
    embeddings: Embeddings


def describe(
    info: RepositoryInfo,
    size: RepositorySize | None,
    changes: tuple[int, tuple[str, ...]] | None,
) -> RepositoryRow:
    """The row of `info`, with its vector counts and the files changed on disk since it was
    indexed (`changes`; None when not scanned or the folder is not here)."""
    nodes, vectors = (size.nodes, size.vectors) if size is not None else (0, 0)
    state: State = "complete"
    if info.status != "complete":
        state = "indexing"
    elif changes is not None and changes[0] > 0:
        state = "stale"
    embeddings: Embeddings = "present"
    if vectors == 0:
        embeddings = "absent"
    elif vectors < nodes:
        embeddings = "partial"
    return RepositoryRow(
        name=info.name,
        root=info.root,
        commit=info.head,
        indexed_at=info.indexed_at.astimezone(timezone.utc).isoformat()
        if info.indexed_at
        else None,
        files=info.files,
        symbols=info.symbols,
        languages=info.languages,
        status=info.status,
        state=state,
        changed_files=changes[0] if changes is not None else None,
        changed_sample=changes[1] if changes is not None else (),
        nodes=nodes,
        vectors=vectors,
        embeddings=embeddings,
    )


def _changes(info: RepositoryInfo) -> tuple[int, tuple[str, ...]] | None:
    from ..ingest.watch import changed_since

    if not info.root or info.indexed_at is None:
        return None
    return changed_since(Path(info.root), info.indexed_at)


def _repos(args: argparse.Namespace, console: Console) -> int:
    from ..errors import RepositoryNotFoundError

    with open_graph() as graph:
        infos = graph.repositories()
        if args.name is not None:
            chosen = [info for info in infos if info.name == args.name]
            if not chosen:
                raise RepositoryNotFoundError(args.name, known=[info.name for info in infos])
            infos = chosen
        sizes = graph.reader.repository_sizes()
    rows = [
        describe(info, sizes.get(info.name), None if args.no_scan else _changes(info))
        for info in infos
    ]
    if args.json:
        print_json(console, [asdict(row) for row in rows])
        return 0
    if not rows:
        console.print("no repository indexed yet: `graphrag-code index PATH` adds one")
        return 0
    _print_table(console, rows)
    return 0


def _print_table(console: Console, rows: list[RepositoryRow]) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(show_edge=False)
    for column in ("repository", "state", "files", "symbols", "languages", "vectors",
                   "commit", "indexed (UTC)", "folder"):  # fmt: skip
        table.add_column(column, justify="right" if column in ("files", "symbols") else "left")
    for row in rows:
        languages = ", ".join(f"{lang} {files:,}" for lang, files in row.languages.items())
        table.add_row(  # what comes from data as Text: a folder named `[x]` is not markup
            Text(row.name), _state_cell(row), f"{row.files:,}", f"{row.symbols:,}",
            Text(languages), _vectors_cell(row), (row.commit or "not git")[:10],
            _when(row.indexed_at), Text(row.root or ""),
        )  # fmt: skip
    console.print(table)
    for hint, needed in (
        ("indexing: the last run was interrupted or still runs, answers may miss files; "
         "`graphrag-code index PATH --repo NAME` finishes it",
         any(row.state == "indexing" for row in rows)),
        ("stale: files changed since indexing; `graphrag-code index PATH --repo NAME` "
         "updates the graph incrementally", any(row.state == "stale" for row in rows)),
        ("vectors partial or absent: search's vector leg cannot find what has none; "
         "`graphrag-code embed --repo NAME` fills them in",
         any(row.embeddings != "present" for row in rows)),
    ):  # fmt: skip
        if needed:
            console.print(f"[dim]{hint}[/]", highlight=False)


def _state_cell(row: RepositoryRow) -> str:
    if row.state == "stale":
        return f"[yellow]stale: {row.changed_files:,} file(s) changed[/]"
    if row.state == "indexing":
        return "[yellow]indexing[/]"
    if row.changed_files is None and row.root and not Path(row.root).is_dir():
        return "complete (folder not here)"
    return "complete"


def _vectors_cell(row: RepositoryRow) -> str:
    if row.embeddings == "partial":
        return f"[yellow]partial {row.vectors:,}/{row.nodes:,}[/]"
    if row.embeddings == "absent":
        return "[yellow]absent[/]"
    return "present"


def _when(stamp: str | None) -> str:
    if stamp is None:
        return ""
    return datetime.fromisoformat(stamp).strftime("%Y-%m-%d %H:%M")
