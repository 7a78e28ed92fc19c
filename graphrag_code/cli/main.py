"""Entry point: parse arguments, build Settings once, dispatch to a command module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from ..errors import GraphRAGCodeError
from . import demo, embed_commands, eval_commands, index_commands, neo4j_commands, query_commands

__all__ = ["build_parser", "main"]

_COMMAND_MODULES = (
    neo4j_commands, index_commands, embed_commands, query_commands, eval_commands, demo,
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="graphrag-code",
        description="Index code repositories into Neo4j and ask questions about them.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _COMMAND_MODULES:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # piped output keeps long qualified names on one line instead of wrapping at 80 columns
    console = Console(stderr=False, width=None if sys.stdout.isatty() else 200)
    try:
        code: int = args.handler(args, console)
    except GraphRAGCodeError as exc:
        Console(stderr=True).print(f"[bold red]error:[/] {exc}", highlight=False)
        return 1
    except KeyboardInterrupt:
        Console(stderr=True).print("interrupted")
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
