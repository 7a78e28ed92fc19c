"""Entry point: parse arguments, build Settings once, dispatch to a command module."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from rich.text import Text

from ..errors import GraphRAGCodeError
from . import (
    demo,
    embed_commands,
    eval_commands,
    impact_commands,
    index_commands,
    mcp_command,
    neo4j_commands,
    query_commands,
    repos_command,
)
from .console import SafeConsole
from .exit_codes import FAILED, INTERRUPTED, exit_code

__all__ = ["build_parser", "main"]

_COMMAND_MODULES = (
    neo4j_commands, index_commands, repos_command, embed_commands, query_commands,
    impact_commands, eval_commands, demo, mcp_command,
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


def _quiet_driver_logs() -> None:
    """The Neo4j driver logs retries and defunct connections as warnings; with no handler
    configured Python prints them to stderr next to our own messages, which already say what
    failed. A program that configures logging still gets them."""
    driver_log = logging.getLogger("neo4j")
    if not any(isinstance(handler, logging.NullHandler) for handler in driver_log.handlers):
        driver_log.addHandler(logging.NullHandler())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is one of those in `exit_codes`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _quiet_driver_logs()
    # piped output keeps long qualified names on one line instead of wrapping at 80 columns
    console = SafeConsole(stderr=False, width=None if sys.stdout.isatty() else 200)
    try:
        code: int = args.handler(args, console)
    except GraphRAGCodeError as exc:
        # as Text: a message quoting user input ("[x]") must not be read as markup
        SafeConsole(stderr=True).print(Text.assemble(("error: ", "bold red"), str(exc)))
        return exit_code(exc)
    except OSError as exc:
        # a disk error the command could not work around (a full disk, a read-only or
        # forbidden folder): its message, not a traceback (issue 57)
        where = f" ({exc.filename})" if exc.filename else ""
        SafeConsole(stderr=True).print(
            Text.assemble(("error: ", "bold red"), f"{exc.strerror or exc}{where}")
        )
        return FAILED
    except KeyboardInterrupt:
        SafeConsole(stderr=True).print("interrupted")
        return INTERRUPTED
    return code


if __name__ == "__main__":
    sys.exit(main())
