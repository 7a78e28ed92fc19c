"""`eval history`: how well retrieval finds the files each commit of a repository changed.

Each run writes its JSONL run log, a Markdown report, a summary JSON and a PNG under `--output`
(default `eval-results/`), and prints the means as tables (or everything with `--json`). The
benchmark is imported inside the handler: it pulls in matplotlib, which `graphrag-code --help`
does not need. The research benchmarks (SciFact, code questions) are scripts of a checkout:
`python -m benchmarks.retrieval.scifact`, `python -m benchmarks.retrieval.code_questions`.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError
from .console import SafeConsole
from .engine import open_graph
from .output import print_json
from .progress import RichProgress

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from ..evaluation.history import HistoryResult

__all__ = ["register"]

DEFAULT_OUTPUT = Path("eval-results")


def register(commands: Any) -> None:
    evaluate = commands.add_parser("eval", help="retrieval benchmarks on your own repository")
    benchmarks = evaluate.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")

    history = benchmarks.add_parser(
        "history", help="questions from PATH's git log: commit subject -> files it changed"
    )
    history.add_argument("path", type=Path, metavar="PATH", help="a git repository")
    history.add_argument("--repo", help="repository name in the graph (default: FOLDER-history)")
    history.add_argument(
        "--max-commits", type=int, default=50, help="questions: most recent usable commits (50)"
    )
    history.add_argument(
        "--max-files", type=int, default=10, help="skip commits changing more files (10)"
    )
    history.add_argument(
        "--at",
        choices=("parent", "head"),
        default="parent",
        help="search each commit's parent (no leak, one index per commit) or HEAD (one index, "
        "leaks the answer)",
    )
    history.add_argument(
        "--rev", default="HEAD", help="where the history ends: a commit, tag or branch (HEAD)"
    )
    history.add_argument("--ablations", help="comma-separated (default: all)")
    history.add_argument(
        "--output", type=Path, default=DEFAULT_OUTPUT, help=f"folder (default {DEFAULT_OUTPUT}/)"
    )
    history.add_argument("--json", action="store_true", help="machine-readable output")
    history.set_defaults(handler=_history)


def _names(text: str | None) -> list[str]:
    return [name.strip() for name in (text or "").split(",") if name.strip()]


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _scores_table(
    scores: Mapping[str, Mapping[str, Any]], columns: Sequence[str], *, title: str, first: str
) -> Table:
    from rich.table import Table

    table = Table(title=title, show_edge=False, title_justify="left")
    table.add_column(first)
    for column in columns:
        table.add_column(column, justify="right")
    for name, row in scores.items():
        table.add_row(name, *(_number(row.get(column)) for column in columns))
    return table


def _number(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # a count, such as questions per category
    return f"{float(value):.3f}"


# -- history ------------------------------------------------------------------------------------
def _history(args: argparse.Namespace, console: Console) -> int:
    from ..evaluation.history import (
        ABLATIONS,
        HistoryOptions,
        Revision,
        build_questions,
        run_history_benchmark,
        select_ablations,
        write_history_report,
    )
    from ..evaluation.runlog import RunLog

    options = HistoryOptions(
        revision=Revision(args.at),
        max_questions=args.max_commits,
        max_files=args.max_files,
        rev=args.rev,
    )
    ablations = select_ablations(_names(args.ablations)) if args.ablations else ABLATIONS
    questions = build_questions(args.path, options)
    if not questions.questions:
        raise ConfigurationError(
            f"no commit of {questions.root} makes a question (skipped: "
            f"{questions.skipped_counts() or 'no commits'}); try --max-files or --at head"
        )
    command = _history_command(args)
    log = RunLog(
        args.output / f"history-{questions.root.name}-{_stamp()}.jsonl",
        context={"command": command},
    )
    with open_graph() as graph, RichProgress(SafeConsole(stderr=True)) as progress:
        result = run_history_benchmark(
            questions, graph, repo=args.repo, ablations=ablations, log=log, progress=progress
        )
    written = write_history_report(result, args.output, command=command, run_log=log.path)
    if args.json:
        files = [str(path) for path in [log.path, *written]]
        print_json(console, {**result.as_dict(), "files": files})
        return 0
    _show_history(result, console)
    console.print(f"[dim]written: {', '.join(str(p) for p in [log.path, *written])}[/]")
    return 0


def _history_command(args: argparse.Namespace) -> str:
    parts = ["graphrag-code eval history", str(args.path), f"--at {args.at}"]
    parts += [f"--max-commits {args.max_commits}", f"--max-files {args.max_files}"]
    if args.rev != "HEAD":
        parts.append(f"--rev {args.rev}")
    if args.repo:
        parts.append(f"--repo {args.repo}")
    if args.ablations:
        parts.append(f"--ablations {args.ablations}")
    return " ".join(parts)


def _show_history(result: HistoryResult, console: Console) -> None:
    from ..evaluation.history import metric_names

    summary = result.as_dict()
    skipped = ", ".join(f"{reason}: {n}" for reason, n in summary["skipped"].items())
    console.print(
        f"[bold]{result.scored}[/] questions from the history of {result.questions.root} "
        f"(searched at {summary['revision']}, repository {result.repo}); "
        f"skipped {skipped or 'none'}",
        highlight=False,
    )
    columns = metric_names(result.ks)
    console.print(_scores_table(summary["results"], columns, title="all", first="ablation"))
    categories = summary["categories"] if len(summary["categories"]) > 1 else {}
    for category, size in categories.items():
        scores = {
            name: by_category.get(category, {})
            for name, by_category in summary["by_category"].items()
        }
        title = f"{category} ({size})"
        console.print(_scores_table(scores, columns, title=title, first="ablation"))
    seconds = ", ".join(f"{name} {value:.0f} s" for name, value in summary["seconds"].items())
    console.print(f"[dim]{seconds}[/]")
