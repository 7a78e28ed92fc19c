"""`search`, `callers`, `callees`, `importers`, `dependencies`, `impact`, `path`, `explain`,
`context`, `entry-points`: questions about indexed code, as tables or `--json`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..retrieval.legs import FILE_TEXT, LEGS, UNIT_LEGS
from ..retrieval.relation_kinds import POSSIBLE_HELP, RELATIONS
from ..retrieval.units import Unit
from .arguments import name_argument
from .console import SafeConsole
from .engine import open_graph
from .output import print_json

if TYPE_CHECKING:
    from rich.console import Console

    from ..graph import AnswerWarning

__all__ = ["register"]


def register(commands: Any) -> None:
    search = commands.add_parser("search", help="hybrid search: vector + full-text + graph")
    search.add_argument("question")
    _common(search)
    _within(search)
    search.add_argument("-k", type=int, default=10, help="number of hits (default 10)")
    search.add_argument(
        "--legs",
        default=",".join(LEGS),
        help=f"comma-separated legs to use (ablations); file search adds {FILE_TEXT!r} to all",
    )
    unit = search.add_mutually_exclusive_group()
    unit.add_argument(
        "--unit",
        choices=[u.value for u in Unit],
        default=Unit.SYMBOL.value,
        help="rank symbols (default), files, or packages (folders) by their symbols' evidence",
    )
    unit.add_argument(
        "--files", dest="unit", action="store_const", const=Unit.FILE.value, help="--unit file"
    )
    search.add_argument(
        "--tests",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep (--tests) or leave out (--no-tests) test code; by default a concept "
        "question leaves it out unless it mentions tests",
    )
    search.set_defaults(handler=_search)

    for kind in RELATIONS.values():
        sub = commands.add_parser(kind.name, help=kind.summary, description=kind.description)
        sub.add_argument(
            "name",
            metavar="NAME",
            type=name_argument,
            help="qualified name, short name or file path",
        )
        sub.add_argument("--depth", type=int, default=kind.depth)
        _common(sub)
        _within(sub)
        sub.add_argument("--possible", action="store_true", help=POSSIBLE_HELP)
        sub.set_defaults(handler=_relation, relation=kind.name)

    path = commands.add_parser("path", help="shortest call/import chain from SOURCE to TARGET")
    path.add_argument("source", type=name_argument)
    path.add_argument("target", type=name_argument)
    _common(path)
    _within(path)
    path.set_defaults(handler=_path)

    explain = commands.add_parser("explain", help="why SOURCE calls TARGET (and through what)")
    explain.add_argument("source", type=name_argument)
    explain.add_argument(
        "target", type=name_argument, help="a symbol, or an external's name (`<builtin>.map`)"
    )
    _common(explain)
    explain.set_defaults(handler=_explain)

    context = commands.add_parser("context", help="the code that answers QUESTION, with citations")
    context.add_argument("question")
    context.add_argument("--max-tokens", type=int, default=4000)
    _common(context)
    context.set_defaults(handler=_context)

    ask = commands.add_parser("ask", help="a grounded answer with file:line citations (LLM)")
    ask.add_argument("question")
    ask.add_argument("--max-tokens", type=int, default=4000, help="context budget")
    ask.add_argument("--model", help="chat model (default: GRAPHRAG_CODE_OPENAI_CHAT_MODEL)")
    _common(ask)
    ask.set_defaults(handler=_ask)

    entry = commands.add_parser("entry-points", help="roots and most central symbols of a repo")
    entry.add_argument("--repo", required=True, type=name_argument)
    entry.add_argument("--limit", type=int, default=15)
    entry.add_argument("--json", action="store_true")
    entry.set_defaults(handler=_entry_points)


def print_warnings(warnings: Sequence[AnswerWarning | str]) -> None:
    """Warnings go to stderr, so `--json` output stays parseable (where they are records
    under `warnings` too)."""
    for warning in warnings:
        SafeConsole(stderr=True).print(Text.assemble(("warning: ", "yellow"), str(warning)))


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", type=name_argument, help="restrict to one repository")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _within(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--within",
        action="store_true",
        help="never leave the subject's repository (by default the walk follows edges into "
        "other indexed repositories, and --repo only filters the answers)",
    )


def _search(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    from ..retrieval.search import SearchOptions

    legs = tuple(leg.strip() for leg in args.legs.split(",") if leg.strip())
    with open_graph() as graph:
        result = graph.search(
            args.question,
            repo=args.repo,
            options=SearchOptions(k=args.k, legs=legs, within=args.within, tests=args.tests),
            unit=args.unit,
        )
    print_warnings(result.warnings)
    if args.json:
        print_json(
            console,
            {
                "question": result.question.text,
                "intent": result.question.intent.value,
                "seeds": result.seeds,
                "timings_ms": result.timings_ms,
                "hits": [asdict(hit) for hit in result.hits],
                "warnings": [asdict(warning) for warning in result.warnings],
                "tests": result.tests,
            },
        )
        return 0
    console.print(
        f"intent: [bold]{result.question.intent.value}[/]"
        + (f", named: {', '.join(result.seeds)}" if result.seeds else "")
        + ("" if result.tests else "; test code left out (--tests keeps it)"),
        highlight=False,
    )
    table = Table(show_edge=False)
    first = "symbol" if args.unit == Unit.SYMBOL.value else args.unit
    legs = LEGS if args.unit == Unit.SYMBOL.value else UNIT_LEGS
    for column in ("#", first, "kind", "location", *legs, "why"):
        table.add_column("whole file" if column == FILE_TEXT else column)
    for rank, hit in enumerate(result.hits, start=1):
        table.add_row(
            str(rank), hit.qualified_name, hit.kind, str(hit.location),
            *(str(hit.ranks.get(leg, "")) for leg in legs),
            (hit.explain or "") + (" (possible)" if hit.possible else ""),
        )  # fmt: skip
    console.print(table)
    timings = ", ".join(f"{name} {ms:.0f} ms" for name, ms in result.timings_ms.items())
    console.print(f"[dim]{timings}[/]")
    return 0


def _relation(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    with open_graph() as graph:
        result = graph.related(
            args.relation, args.name, depth=args.depth, repo=args.repo, within=args.within,
            possible=args.possible,
        )  # fmt: skip
    print_warnings(result.warnings)
    if args.json:
        print_json(console, asdict(result))
        return 0
    subject = result.subject
    console.print(
        f"[bold]{args.relation}[/] of {subject.qualified_name} ({subject.kind}, "
        f"{subject.repo}: {subject.location})",
        highlight=False,
    )
    if result.leaning:
        console.print(f"[yellow]{result.leaning}[/]", highlight=False)
    for title, rows in (
        ("certain", result.certain),
        ("possible (a name match only, or a dispatch to an override)", result.possible),
    ):
        if not rows:
            continue
        table = Table(title=title, show_edge=False)
        for column in (
            "distance", "symbol", "kind", "repository", "location", "edge", "resolution", "why"
        ):  # fmt: skip
            table.add_column(column)
        for row in sorted(rows, key=lambda r: (r.distance, r.qualified_name)):
            table.add_row(
                str(row.distance), row.qualified_name, row.kind or "external", row.repo or "",
                str(row.location or "(external)"),
                row.edge, row.resolution or "", row.why or "",
            )  # fmt: skip
        console.print(table)
    if not result.certain and not result.possible:
        console.print("nothing found")
    if result.unresolved_call_sites:
        console.print(f"{result.unresolved_call_sites} call site(s) in it could not be resolved")
    if result.unresolved_candidates:
        names = ", ".join(c.qualified_name for c in result.unresolved_candidates[:10])
        console.print(
            f"{len(result.unresolved_candidates)} function(s) have unresolved calls with this "
            f"name and might call it: {names}",
            highlight=False,
        )
    if result.truncated:
        console.print("[yellow]truncated: the answer hit a size cap[/]")
    if result.leaned_on == "certain" and result.certain:
        # (with no answer at all the possible walk ran too, and found nothing either)
        console.print("[dim]certain edges only: --possible adds name matches and dispatch[/]")
    return 0


def _path(args: argparse.Namespace, console: Console) -> int:
    with open_graph() as graph:
        result = graph.path(args.source, args.target, repo=args.repo, within=args.within)
    print_warnings(result.warnings)
    if args.json:
        print_json(console, asdict(result))
        return 0
    if not result.found:
        console.print(
            f"no call/import path from {result.source.qualified_name} to "
            f"{result.target.qualified_name}"
        )
        return 1
    home = result.steps[0].repo
    for step in result.steps:
        if step.edge is not None:
            tier = f" ({step.resolution})" if step.resolution else ""
            why = (
                f"  [yellow]possible: {step.why or step.resolution}[/]" if not step.certain else ""
            )
            console.print(f"   └─{step.edge}{tier}─▶{why}", highlight=False)
        # the repository only where the chain crossed into another one
        where = f"{step.repo}: {step.location}" if step.repo != home else str(step.location)
        console.print(f"{step.qualified_name}  [dim]{where}[/]", highlight=False)
    if result.possible_steps:
        console.print(f"[yellow]{result.possible_steps} possible step(s): no certain chain[/]")
    return 0


def _explain(args: argparse.Namespace, console: Console) -> int:
    with open_graph() as graph:
        result = graph.explain(args.source, args.target, repo=args.repo)
    print_warnings(result.warnings)
    if args.json:
        print_json(console, {**asdict(result), "text": result.text})
    else:
        console.print(result.text, highlight=False)
    return 0 if result.found else 1


def _context(args: argparse.Namespace, console: Console) -> int:
    with open_graph() as graph:
        context = graph.build_context(args.question, max_tokens=args.max_tokens, repo=args.repo)
    print_warnings(context.warnings)
    if args.json:
        print_json(
            console,
            {
                "question": context.question,
                "tokens": context.tokens,
                "truncated": context.truncated,
                "items": [asdict(item) for item in context.items],
                "warnings": [asdict(warning) for warning in context.warnings],
            },
        )
        return 0
    console.print(context.text, highlight=False, markup=False)
    console.print(
        f"[dim]{context.tokens} of {context.max_tokens} tokens"
        + (", truncated" if context.truncated else "")
        + "[/]"
    )
    return 0


def _ask(args: argparse.Namespace, console: Console) -> int:
    from ..llm import OpenAIChat

    with open_graph() as graph:
        chat = OpenAIChat(args.model or graph.settings.openai_chat_model)
        answer = graph.ask(args.question, repo=args.repo, max_tokens=args.max_tokens, chat=chat)
    print_warnings(answer.context.warnings)
    if args.json:
        print_json(
            console,
            {
                "question": answer.question,
                "answer": answer.text,
                "citations": answer.citations,
                "invalid_citations": answer.invalid_citations,
                "enough_context": answer.enough_context,
                "model": answer.model,
                "context": [item.citation for item in answer.context.items],
                "warnings": [asdict(warning) for warning in answer.context.warnings],
            },
        )
        return 0
    console.print(answer.text, highlight=False, markup=False)
    if answer.citations:
        console.print(f"[dim]cited: {', '.join(answer.citations)}[/]")
    if answer.invalid_citations:
        console.print(
            f"[yellow]not in the context (ignore): {', '.join(answer.invalid_citations)}[/]"
        )
    return 0


def _entry_points(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    with open_graph() as graph:
        points = graph.entry_points(args.repo, limit=args.limit)
    print_warnings(points.warnings)
    if args.json:
        print_json(console, asdict(points))
        return 0
    for title, rows in (
        ("roots (nothing calls them)", points.roots),
        ("most central", points.central),
    ):
        table = Table(title=title, show_edge=False)
        for column in ("symbol", "kind", "location", "pagerank", "in", "out"):
            table.add_column(column)
        for point in rows:
            table.add_row(
                point.qualified_name, point.kind, str(point.location),
                f"{point.pagerank:.4f}", str(point.in_degree), str(point.out_degree),
            )  # fmt: skip
        console.print(table)
    return 0
