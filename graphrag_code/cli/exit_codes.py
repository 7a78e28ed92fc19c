"""The exit status of every `graphrag-code` command (README, "Exit codes", lists the same).

0    success
1    the command failed for a reason its message gives: a setting or credentials to fix
     (an invalid setting, credentials Neo4j rejects, an unknown database), a data or cache
     folder that cannot be written, a symbol not in the graph, indexing or embedding
     failed, `path` found no path
2    usage: a malformed command line, or an argument that cannot work (an empty
     question or name, -k below 1, a repository the graph does not hold, a repository
     indexed from another folder without --move)
3    `neo4j status`: the managed server is not running
4    Neo4j: no server answers, the managed server cannot start, or Neo4j rejected or
     kept failing a query
6    `diff --fail-on`: the change fails the chosen check
130  interrupted (Ctrl-C)
"""

from __future__ import annotations

from ..errors import (
    GraphRAGCodeError,
    InvalidArgumentError,
    LocalServerError,
    Neo4jQueryError,
    Neo4jUnavailableError,
    RepositoryNotFoundError,
)

__all__ = [
    "CHECK_FAILED", "FAILED", "INTERRUPTED", "NEO4J", "NOT_RUNNING", "OK", "USAGE", "exit_code",
]  # fmt: skip

OK = 0
FAILED = 1
USAGE = 2
NOT_RUNNING = 3
NEO4J = 4
CHECK_FAILED = 6
INTERRUPTED = 130

_BY_ERROR: tuple[tuple[type[GraphRAGCodeError], int], ...] = (
    (InvalidArgumentError, USAGE),
    (RepositoryNotFoundError, USAGE),  # a misspelt --repo: the message offers the nearest
    (Neo4jUnavailableError, NEO4J),
    (Neo4jQueryError, NEO4J),
    (LocalServerError, NEO4J),
)


def exit_code(error: GraphRAGCodeError) -> int:
    """The documented exit status for `error`."""
    for kind, code in _BY_ERROR:
        if isinstance(error, kind):
            return code
    return FAILED
