"""`graphrag-code mcp`: the code graph as Model Context Protocol tools for coding agents.

    options   ServerOptions (allow-list, writes, watch, the token guard), the HTTP bind rule
    confine   where the write tools may index (recorded roots, --allow-write ROOT…)
    tools     the tools, through CodeGraph: compact text + structured content, tool errors
    answers   the structured content of each answer (the tools' output schemas)
    render    the compact text of each answer
    guard     the token guard on questions and answers
    freshness which commit was indexed, when, and what changed on disk since
    overview  the repository overview resource
    watcher   --watch: re-index one repository as its files change
    strict    tools that refuse arguments they do not take
    server    build_server(), serve_stdio(), serve_http() (with BearerTokenGuard)

Built on the official `mcp` Python SDK (its `MCPServer`).
"""

from .options import TOKEN_VARIABLE, ServerOptions, check_http_bind, is_loopback
from .server import build_server, serve_http, serve_stdio
from .watcher import RepositoryWatcher

__all__ = [
    "TOKEN_VARIABLE",
    "RepositoryWatcher",
    "ServerOptions",
    "build_server",
    "check_http_bind",
    "is_loopback",
    "serve_http",
    "serve_stdio",
]
