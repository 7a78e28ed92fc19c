"""`eval history`, `eval scifact`, `eval code`: retrieval benchmarks, as tables or `--json`.

Each run writes its JSONL run log, a Markdown report, a summary JSON and (history) a PNG under
`--output` (default `eval-results/`). The benchmark modules are imported inside the handlers:
they pull in matplotlib and the SciFact machinery, which `graphrag-code --help` does not need,
and the code-questions benchmark may not be installed at all.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from ..codegraph import CodeGraph
from ..errors import ConfigurationError
from .progress import RichProgress

if TYPE_CHECKING:
    from ..eval.history import HistoryResult

__all__ = ["register"]

DEFAULT_OUTPUT = Path("eval-results")
_CODE_MODULE = "graphrag_code.eval.code_questions"


def register(commands: Any) -> None:
    evaluate = commands.add_parser(
        "eval", help="retrieval benchmarks: git history, SciFact, code questions"
    )
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
    history.add_argument("--ablations", help="comma-separated (default: all five)")
    _outputs(history)
    history.set_defaults(handler=_history)

    scifact = benchmarks.add_parser("scifact", help="BEIR SciFact through Neo4j (MiniLM + BM25)")
    scifact.add_argument(
        "--data", type=Path, help="BEIR folder (default: $GRAPHRAG_CODE_SCIFACT_DIR, else the "
        "first shared/data/scifact above the current folder)",
    )  # fmt: skip
    scifact.add_argument("--max-tokens", type=int, default=512, help="MiniLM truncation (512)")
    scifact.add_argument("--quick", action="store_true", help="only the default full-text variant")
    _outputs(scifact)
    scifact.set_defaults(handler=_scifact)

    code = benchmarks.add_parser("code", help="questions about installed packages' code")
    code.add_argument("packages", nargs="*", metavar="PACKAGE", help="default: the benchmark's")
    code.add_argument("--sample", type=int, help="questions per package")
    code.add_argument("--ablations", help="comma-separated ablation names")
    _outputs(code)
    code.set_defaults(handler=_code)


def _outputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--output", type=Path, default=DEFAULT_OUTPUT, help=f"folder (default {DEFAULT_OUTPUT}/)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _names(text: str | None) -> list[str]:
    return [name.strip() for name in (text or "").split(",") if name.strip()]


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _scores_table(
    scores: Mapping[str, Mapping[str, Any]], columns: Sequence[str], *, title: str, first: str
) -> Table:
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
    from ..eval.history import (
        ABLATIONS,
        HistoryOptions,
        HistoryRunLog,
        Revision,
        build_questions,
        run_history_benchmark,
        select_ablations,
        write_history_report,
    )

    options = HistoryOptions(
        revision=Revision(args.at), max_questions=args.max_commits, max_files=args.max_files
    )
    ablations = select_ablations(_names(args.ablations)) if args.ablations else ABLATIONS
    questions = build_questions(args.path, options)
    if not questions.questions:
        raise ConfigurationError(
            f"no commit of {questions.root} makes a question (skipped: "
            f"{questions.skipped_counts() or 'no commits'}); try --max-files or --at head"
        )
    command = _history_command(args)
    log = HistoryRunLog(
        args.output / f"history-{questions.root.name}-{_stamp()}.jsonl",
        context={"command": command},
    )
    with CodeGraph() as graph, RichProgress(Console(stderr=True)) as progress:
        result = run_history_benchmark(
            questions, graph, repo=args.repo, ablations=ablations, log=log, progress=progress
        )
    written = write_history_report(result, args.output, command=command, run_log=log.path)
    if args.json:
        files = [str(path) for path in [log.path, *written]]
        console.print_json(json.dumps({**result.as_dict(), "files": files}))
        return 0
    _show_history(result, console)
    console.print(f"[dim]written: {', '.join(str(p) for p in [log.path, *written])}[/]")
    return 0


def _history_command(args: argparse.Namespace) -> str:
    parts = ["graphrag-code eval history", str(args.path), f"--at {args.at}"]
    parts += [f"--max-commits {args.max_commits}", f"--max-files {args.max_files}"]
    if args.repo:
        parts.append(f"--repo {args.repo}")
    if args.ablations:
        parts.append(f"--ablations {args.ablations}")
    return " ".join(parts)


def _show_history(result: HistoryResult, console: Console) -> None:
    from ..eval.history import metric_names

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


# -- SciFact ------------------------------------------------------------------------------------
def _scifact_data(given: Path | None) -> Path:
    """--data, else $GRAPHRAG_CODE_SCIFACT_DIR, else shared/data/scifact in the current folder
    or above it (the layout of this project's checkouts)."""
    if given is not None:
        return given
    if os.environ.get("GRAPHRAG_CODE_SCIFACT_DIR"):
        return Path(os.environ["GRAPHRAG_CODE_SCIFACT_DIR"])
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        candidate = folder / "shared" / "data" / "scifact"
        if (candidate / "corpus.jsonl").is_file():
            return candidate
    raise ConfigurationError(
        "no SciFact data found: pass --data DIR (BEIR layout) or set GRAPHRAG_CODE_SCIFACT_DIR"
    )


def _scifact(args: argparse.Namespace, console: Console) -> int:
    from ..eval.scifact import run_scifact

    data = _scifact_data(args.data)
    command = f"graphrag-code eval scifact --data {data} --max-tokens {args.max_tokens}"
    command += " --quick" if args.quick else ""
    run = run_scifact(
        data,
        out=args.output,
        command=command,
        max_tokens=args.max_tokens,
        quick=args.quick,
        console=Console(stderr=True),
    )
    written = run.write(args.output)
    files = [str(path) for path in [run.log_path, *written]]
    if args.json:
        timings = {"query_median": run.query_median_ms, "embed_median": run.embed_median_ms}
        console.print_json(json.dumps({**run.as_dict(), "timings_ms": timings, "files": files}))
        return 0
    for title, rows in run.report.sections:
        table = Table(title=title, show_edge=False, title_justify="left")
        table.add_column("system")
        table.add_column("nDCG@10", justify="right")
        table.add_column("R@100", justify="right")
        table.add_column("note")
        for name, ndcg, recall, note in rows:
            table.add_row(name, *("–" if v is None else f"{v:.4f}" for v in (ndcg, recall)), note)
        console.print(table)
    console.print(
        f"[dim]per query: both legs in one round trip, median {run.query_median_ms:.1f} ms; "
        f"query embedding median {run.embed_median_ms:.1f} ms; written: {', '.join(files)}[/]"
    )
    return 0


# -- code questions ------------------------------------------------------------------------------
def _jsonable(value: Any) -> Any:
    """The benchmark's result as JSON-ready data, whatever shape it comes in."""
    for method in ("to_json", "as_dict"):
        if callable(getattr(value, method, None)):
            return _jsonable(getattr(value, method)())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(item) for item in value]
    if isinstance(value, Path):
        return str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _code(args: argparse.Namespace, console: Console) -> int:
    try:
        module = importlib.import_module(_CODE_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != _CODE_MODULE:
            raise
        raise ConfigurationError(
            f"the code-questions benchmark ({_CODE_MODULE}) is not part of this installation"
        ) from exc
    packages = tuple(args.packages) or tuple(getattr(module, "DEFAULT_PACKAGES", ()))
    if not packages:
        raise ConfigurationError("name the packages to ask about, e.g. requests==2.32.3")
    options: dict[str, Any] = {"output_dir": args.output}
    if args.sample is not None:
        options["sample"] = args.sample
    if args.ablations:
        options["ablations"] = tuple(_names(args.ablations))
    with RichProgress(Console(stderr=True)) as progress:
        result = module.run_code_benchmark(packages, progress=progress, **options)
    data = _jsonable(result)
    if args.json or not _show_code_scores(data, console):
        console.print_json(json.dumps(data))
    return 0


def _show_code_scores(data: Any, console: Console) -> bool:
    """One table per category of the pooled scores ({ablation: {category: {metric: value}}});
    False when the result has another shape (the caller prints it as JSON)."""
    pooled = data.get("pooled") if isinstance(data, Mapping) else None
    if not isinstance(pooled, Mapping) or not pooled:
        return False
    categories = list(dict.fromkeys(c for rows in pooled.values() for c in rows))
    for category in categories:
        scores = {name: rows[category] for name, rows in pooled.items() if category in rows}
        columns = list(dict.fromkeys(m for row in scores.values() for m in row))
        console.print(_scores_table(scores, columns, title=category, first="ablation"))
    if data.get("run_log"):
        console.print(f"[dim]run log: {data['run_log']}[/]")
    return True
