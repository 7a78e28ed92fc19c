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


class _NoNumpyForTheDriver:
    """Refuses numpy to the Neo4j driver's optional-dependency probe alone, in a command's
    process. The driver imports numpy (0.06-0.08 CPU s, an eighth of a question's start-up:
    issue 56) only to accept numpy values as query parameters, and the library sends none
    (vectors go as lists of floats). Any other importer of numpy gets it as usual, and then
    so does the driver; a program using the library, not the CLI, is left as it is. (A
    meta path finder needs only `find_spec`: `importlib.abc` costs 0.02 s to import.)"""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "numpy":
            frame = sys._getframe(1)
            while frame is not None and frame.f_globals.get("__name__", "").startswith(
                ("importlib", "_frozen_importlib")
            ):
                frame = frame.f_back  # type: ignore[assignment]
            if frame is not None and frame.f_globals.get("__name__") == "neo4j._optional_deps":
                raise ImportError("numpy is not offered to the Neo4j driver")
        return None


def _driver_without_numpy() -> None:
    if not any(isinstance(finder, _NoNumpyForTheDriver) for finder in sys.meta_path):
        sys.meta_path.insert(0, _NoNumpyForTheDriver())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is one of those in `exit_codes`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _driver_without_numpy()
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
