"""`graphrag-code index PATH`, `export callgraph` and `delete`: building the graph."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..errors import ConfigurationError
from .arguments import name_argument
from .console import SafeConsole
from .cross_output import print_cross_changes, print_moved
from .engine import open_graph
from .output import print_json
from .progress import progress_for, say_waiting

if TYPE_CHECKING:
    from rich.console import Console

    from ..ingest.report import IngestReport

__all__ = ["register"]


def register(commands: Any) -> None:
    index = commands.add_parser(
        "index", help="index a repository (incremental after the first run)"
    )
    index.add_argument("path", type=Path, help="repository folder")
    index.add_argument("--repo", help="repository name in the graph (default: folder name)")
    index.add_argument("--full", action="store_true", help="ignore incremental state, rebuild")
    index.add_argument(
        "--move",
        action="store_true",
        help="the repository is indexed from another folder: move it to PATH (refused "
        "without this, so a copy is never indexed over the original by mistake)",
    )
    index.add_argument("--watch", action="store_true", help="keep the graph fresh as files change")
    index.add_argument(
        "--embed",
        choices=("now", "later"),
        default="now",
        help="now (default): compute the vectors after the graph, which answers relationship "
        "and text questions while they are computed; later: graph and full-text index only, "
        "`graphrag-code embed --repo NAME` fills the vectors in",
    )
    index.add_argument(
        "--no-embeddings",
        dest="embed",
        action="store_const",
        const="later",
        help="the same as --embed later",
    )
    index.add_argument("--json", action="store_true", help="print the report as JSON")
    index.add_argument(
        "--languages",
        type=_language_list,
        help="only these languages, comma-separated (py,ts,js; default: every supported one)",
    )
    index.add_argument(
        "--include-generated",
        action="store_true",
        help="index generated files and bundles too (skipped by default: a `DO NOT EDIT` or "
        "protoc header, index.umd.js, a .d.ts beside its .js)",
    )
    index.set_defaults(handler=_index)

    export = commands.add_parser("export", help="export parts of the graph")
    what = export.add_subparsers(dest="what", required=True, metavar="WHAT")
    callgraph = what.add_parser("callgraph", help="JSON {caller: [callee, ...]} of one repository")
    callgraph.add_argument("--repo", required=True, type=name_argument)
    callgraph.add_argument("--output", "-o", type=Path, help="file to write (default: stdout)")
    callgraph.add_argument(
        "--certain", action="store_true", help="only exact and inferred edges (no name matches)"
    )
    callgraph.set_defaults(handler=_export_callgraph)

    delete = commands.add_parser("delete", help="remove a repository from the graph")
    delete.add_argument("--repo", required=True, type=name_argument)
    delete.set_defaults(handler=_delete)


def _language_list(text: str) -> frozenset[str]:
    from ..languages import select_declared

    try:
        return frozenset(lang.name for lang in select_declared(text.split(",")))
    except ConfigurationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _index(args: argparse.Namespace, console: Console) -> int:
    from ..api import connect, index_repository, watch_repository
    from ..embedding import make_embedder
    from ..settings import load_settings

    settings = load_settings()
    embedder = make_embedder(settings)  # one for all runs of --watch: it loads its model once
    embed = args.embed == "now"
    with connect(settings) as client:
        client.verify()
        with progress_for(sys.stderr, quiet=args.json) as bar:
            report = index_repository(
                args.path, args.repo, client=client, settings=settings, full=args.full,
                progress=bar, embed=embed, embedder=embedder, on_wait=say_waiting,
                languages=args.languages, include_generated=args.include_generated,
                move=args.move,
            )  # fmt: skip
        print_report(console, report, as_json=args.json)
        if args.watch:
            watch_repository(
                args.path, report.repo, client=client, settings=settings,
                on_report=lambda r: print_report(console, r, as_json=args.json),
                embed=embed, embedder=embedder, languages=args.languages,
                include_generated=args.include_generated,
            )  # fmt: skip
    return 0


def print_report(console: Console, report: IngestReport, *, as_json: bool) -> None:
    from rich.table import Table

    for warning in report.warnings:  # on stderr, where the other warnings go, JSON or not
        SafeConsole(stderr=True).print(Text.assemble(("warning: ", "bold yellow"), warning))
    if report.embed_command:  # `--embed later`: what to run for the vectors, JSON or not
        SafeConsole(stderr=True).print(
            Text.assemble(
                ("note: ", "bold"),
                f"{report.vectors_pending} code node(s) have no vector yet (search finds them "
                f"by name and along the graph only); fill them in with `{report.embed_command}`",
            )
        )
    if as_json:
        print_json(console, report.as_dict())
        return
    console.print(
        f"[bold]{report.repo}[/] ({report.mode}): {report.files_total} files "
        f"({report.files_parsed} parsed, {report.files_unchanged} unchanged, "
        f"{report.files_removed} removed), {report.modules} modules, {report.symbols} symbols",
        highlight=False,
    )
    print_moved(console, report.repo, report.root, report.moved_from)
    edges = Table(title="edges", show_edge=False)
    edges.add_column("kind")
    edges.add_column("resolution")
    edges.add_column("count", justify="right")
    for key, count in sorted(report.edges.items()):
        kind, tier = key.split("/")
        edges.add_row(kind, tier, str(count))
    console.print(edges)
    _print_languages(console, report)
    console.print(f"unresolved call sites: {report.unresolved_calls}", highlight=False)
    dynamic = {k: n for k, n in report.unresolved_kinds.items() if k.startswith("dynamic:")}
    if dynamic:  # getattr with a computed name, eval, exec, importlib: never followed
        kinds = ", ".join(f"{k.removeprefix('dynamic:')} {n}" for k, n in sorted(dynamic.items()))
        console.print(f"  of which dynamic: {kinds}", highlight=False)
    if report.cross_repo_edges or report.cross_repo_ambiguous:
        console.print(
            f"edges to or from other indexed repositories: {report.cross_repo_edges}",
            highlight=False,
        )
    if report.cross_repo_ambiguous:
        console.print(
            f"[yellow]{report.cross_repo_ambiguous} name(s) left external: several indexed "
            "repositories provide their package and the declared dependencies choose none[/]"
        )
    print_cross_changes(console, report.cross_repo_changes, report.cross_repo_kept)
    if "embed" in report.seconds:
        console.print(
            f"embedded {report.embedded} symbols ({report.embedding_cache_hits} reused from "
            "the vector cache)",
            highlight=False,
        )
    if report.skipped:
        reasons = ", ".join(f"{n} {reason}" for reason, n in report.skipped_counts()[:8])
        console.print(
            f"[yellow]skipped {len(report.skipped)} file(s):[/] {reasons}", highlight=False
        )
        for skipped in report.skipped[:20]:
            console.print(f"  {skipped.path}: {skipped.reason}", highlight=False)
        if len(report.skipped) > 20:
            console.print(f"  … and {len(report.skipped) - 20} more (see --json)")
    if report.parse_issues:
        console.print(
            f"[yellow]syntax errors in {len(report.parse_issues)} file(s)[/] (kept what parsed):"
        )
        for path, issues in list(report.parse_issues.items())[:10]:
            console.print(f"  {path}:{issues[0].line}: {issues[0].message}", highlight=False)
    stages = ", ".join(f"{name} {seconds:.2f}s" for name, seconds in report.seconds.items())
    console.print(f"time: {stages} (total {report.total_seconds:.2f}s)", highlight=False)


def _print_languages(console: Console, report: IngestReport) -> None:
    """Files, symbols and edges per language (only when the repository mixes languages)."""
    if len(report.languages) < 2:
        return
    from rich.table import Table

    table = Table(title="languages", show_edge=False)
    for column in ("language", "files", "symbols", "edges", "calls (exact+inferred)"):
        table.add_column(column, justify="left" if column == "language" else "right")
    for name, counts in report.languages.items():
        certain = counts.edges.get("CALLS/exact", 0) + counts.edges.get("CALLS/inferred", 0)
        table.add_row(
            name, str(counts.files), str(counts.symbols), str(sum(counts.edges.values())),
            str(certain),
        )  # fmt: skip
    console.print(table)


def _export_callgraph(args: argparse.Namespace, console: Console) -> int:
    from ..api import connect
    from ..graph import GraphReader
    from ..graph.repositories import require_repository
    from ..settings import load_settings

    settings = load_settings()
    with connect(settings) as client:
        graph = GraphReader(client).call_graph(args.repo, certain=args.certain)
        if not graph:  # a misspelt --repo, not an empty call graph
            require_repository(client, args.repo)
    text = json.dumps(dict(sorted(graph.items())), indent=2)
    if args.output:
        args.output.write_text(text + "\n")
        console.print(f"wrote {len(graph)} callers to {args.output}")
    else:
        sys.stdout.write(text + "\n")
    return 0


def _delete(args: argparse.Namespace, console: Console) -> int:
    with open_graph() as graph:
        changes = graph.delete(args.repo, on_wait=say_waiting)
    console.print(f"deleted repository {args.repo}")
    print_cross_changes(console, changes)
    return 0
