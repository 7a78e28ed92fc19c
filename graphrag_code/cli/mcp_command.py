"""`graphrag-code mcp`: serve the code graph to coding agents over MCP (stdio or HTTP)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InvalidArgumentError, RepositoryNotFoundError
from .console import SafeConsole

if TYPE_CHECKING:
    from rich.console import Console

    from ..codegraph import CodeGraph
    from ..mcp import ServerOptions

__all__ = ["register"]

# the MCP SDK takes half a second to import: only `graphrag-code mcp` pays for it


def register(commands: Any) -> None:
    mcp = commands.add_parser(
        "mcp",
        help="serve the code graph to coding agents (Model Context Protocol)",
        description="Serve the code graph as MCP tools: stdio by default (the client starts "
        "the server), or streamable HTTP with --http.",
    )
    mcp.add_argument("--http", action="store_true", help="streamable HTTP instead of stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    mcp.add_argument(
        "--repo",
        action="append",
        metavar="NAME",
        help="serve only this repository (repeat, or comma-separate, for several)",
    )
    mcp.add_argument(
        "--allow-write",
        nargs="*",
        metavar="ROOT",
        help="offer the index and refresh tools: they re-index a repository only at the folder "
        "it was indexed from, and index a new one only inside a ROOT given here",
    )
    mcp.add_argument(
        "--watch",
        type=Path,
        metavar="PATH",
        help="index this repository folder and keep its graph fresh while serving",
    )
    mcp.add_argument("--watch-repo", metavar="NAME", help="its name (default: the folder name)")
    mcp.add_argument(
        "--max-answer-tokens",
        type=int,
        default=2500,
        help="the token guard: no answer is longer (default 2500)",
    )
    mcp.set_defaults(handler=_serve)


def _options(args: argparse.Namespace) -> ServerOptions:
    from ..ingest.pipeline import valid_repo_name
    from ..mcp import ServerOptions
    from ..mcp.confine import write_roots

    repos = None
    if args.repo:
        repos = frozenset(
            name.strip() for value in args.repo for name in value.split(",") if name.strip()
        )
    watch_repo = None
    if args.watch is not None:
        if not args.watch.is_dir():
            raise InvalidArgumentError(f"--watch {args.watch}: not a folder")
        watch_repo = valid_repo_name(args.watch_repo or args.watch.resolve().name)
        if repos is not None and watch_repo not in repos:
            raise InvalidArgumentError(
                f"--watch indexes {watch_repo!r}, which --repo does not serve: add it"
            )
    return ServerOptions(
        repos=repos,
        allow_write=args.allow_write is not None,
        write_roots=write_roots(args.allow_write or ()),
        watch=args.watch,
        watch_repo=watch_repo,
        max_answer_tokens=args.max_answer_tokens,
    )


def _serve(args: argparse.Namespace, console: Console) -> int:
    from ..codegraph import CodeGraph
    from ..mcp import TOKEN_VARIABLE, RepositoryWatcher, check_http_bind, serve_http, serve_stdio
    from ..mcp.freshness import FreshnessTracker
    from ..settings import load_settings

    settings = load_settings()
    options = _options(args)
    token = settings.mcp_token.get_secret_value() if settings.mcp_token else None
    if args.http:
        check_http_bind(args.host, token)  # before anything starts
    elif token is not None:
        SafeConsole(stderr=True).print(f"note: {TOKEN_VARIABLE} is only used with --http")
    with CodeGraph(settings) as graph:
        _check_served(graph, options)
        tracker = FreshnessTracker(graph.repositories, ttl_s=options.freshness_ttl_s)
        watcher = None
        if options.watch is not None and options.watch_repo is not None:
            watcher = RepositoryWatcher(graph, options.watch, options.watch_repo, tracker)
        if args.http:
            serve_http(graph, options, host=args.host, port=args.port, token=token, watcher=watcher)
        else:
            serve_stdio(graph, options, watcher)
    return 0


def _check_served(graph: CodeGraph, options: ServerOptions) -> None:
    """A `--repo` the graph does not hold is a typo until shown otherwise: refuse it before
    serving, with the nearest names (issue 55), unless this server may create it (the index
    tool under --allow-write, or --watch, which indexes it first)."""
    if options.repos is None or options.allow_write:
        return
    held = [info.name for info in graph.repositories()]
    missing = sorted(options.repos - {options.watch_repo} - set(held))
    if missing:
        raise RepositoryNotFoundError(missing[0], known=held)
