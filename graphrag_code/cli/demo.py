"""`graphrag-code demo [PATH]`: the main job on a fresh machine, end to end.

Starts the local Neo4j (unless NEO4J_URI is set), indexes a repository (graphrag_code's own
source by default), and answers a few example questions of each kind.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GraphRAGCodeError
from .engine import open_graph
from .index_commands import print_report
from .progress import progress_for

if TYPE_CHECKING:
    from rich.console import Console

    from ..codegraph import CodeGraph
    from ..retrieval.relation_kinds import RelationName

__all__ = ["register"]

_DEFAULT_PATH = Path(__file__).resolve().parent.parent  # the graphrag_code package itself

_QUESTIONS: dict[str, list[str]] = {
    "graphrag_code": [
        "where are call sites resolved to functions?",
        "What calls link_file?",
        "What breaks if I change model.py?",
        "trace index_repository to the database writes",
    ],
}
_RELATIONS: dict[str, list[tuple[RelationName, str]]] = {
    "graphrag_code": [("callers", "link_file"), ("impact", "text.py")],
}


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "demo", help="start Neo4j, index a repository (default: this package), ask questions"
    )
    parser.add_argument("path", nargs="?", type=Path, default=_DEFAULT_PATH)
    parser.add_argument("--repo", help="repository name (default: folder name)")
    parser.add_argument("--question", action="append", help="ask this instead of the examples")
    parser.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace, console: Console) -> int:
    with open_graph() as graph:
        client = graph.client
        console.print(
            f"Neo4j: {client.endpoint.uri} ({client.endpoint.source}), database {client.database}",
            highlight=False,
        )
        with progress_for(sys.stderr) as bar:
            report = graph.index(args.path, args.repo, progress=bar)
        print_report(console, report, as_json=False)
        repo = report.repo
        questions = (
            args.question
            or _QUESTIONS.get(repo)
            or [
                "what are the main entry points?",
                "where is configuration loaded?",
            ]
        )
        for question in questions:
            _show_search(console, graph, question, repo)
        for relation, name in [] if args.question else _RELATIONS.get(repo, []):
            try:
                result = graph.related(relation, name, repo=repo)
            except GraphRAGCodeError as exc:
                console.print(f"[yellow]{relation}({name}): {exc}[/]")
                continue
            names = ", ".join(r.qualified_name for r in result.all[:8])
            console.print(f"\n[bold]{relation}({name})[/]: {names}", highlight=False)
        points = graph.entry_points(repo, limit=5)
        console.print(
            "\n[bold]most central[/]: "
            + ", ".join(point.qualified_name for point in points.central),
            highlight=False,
        )
        console.print(
            '\nNext: `graphrag-code search "..."`, `graphrag-code callers NAME`, '
            '`graphrag-code context "..."`; Neo4j Browser: `graphrag-code neo4j status`.'
        )
    return 0


def _show_search(console: Console, graph: CodeGraph, question: str, repo: str) -> None:
    result = graph.search(question, repo=repo, k=5)
    console.print(
        f"\n[bold]Q: {question}[/] (intent {result.question.intent.value}, "
        f"{result.timings_ms.get('query', 0):.0f} ms query)",
        highlight=False,
    )
    from rich.table import Table

    table = Table(show_edge=False, show_header=True)
    for column in ("#", "symbol", "location", "legs", "why"):
        table.add_column(column)
    for rank, hit in enumerate(result.hits, start=1):
        legs = " ".join(f"{leg}:{position}" for leg, position in hit.ranks.items())
        table.add_row(str(rank), hit.qualified_name, str(hit.location), legs, hit.explain or "")
    console.print(table)
