"""The engine, reached only when a command runs.

The command modules build the parser from light modules alone; what talks to Neo4j, parses
code or draws tables is imported by the handlers, through here or in their bodies, so that
`graphrag-code --help` starts in a fifth of the time loading everything took (issue 55;
`tests/test_cli_startup.py` checks what `--help` imports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..codegraph import CodeGraph

__all__ = ["open_graph"]


def open_graph() -> CodeGraph:
    """A `CodeGraph` on the configured Neo4j (nothing connects until the first query)."""
    from ..codegraph import CodeGraph

    return CodeGraph()
