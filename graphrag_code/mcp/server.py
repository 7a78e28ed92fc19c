"""`build_server()`: the MCP server of one `CodeGraph`, and the two ways to serve it: stdio
(`serve_stdio`, for an agent that starts the server itself) and streamable HTTP (`serve_http`,
127.0.0.1 unless told otherwise, a bearer token required beyond loopback)."""

from __future__ import annotations

import hmac
import json
import sys
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp_types import ToolAnnotations

from ..codegraph import CodeGraph
from ..errors import GraphRAGCodeError
from ..text import printable
from .freshness import FreshnessTracker
from .options import ServerOptions, check_http_bind
from .overview import repository_overview
from .strict import strict_tool
from .tools import READ_TOOLS, WRITE_TOOLS, GraphTools
from .watcher import RepositoryWatcher

__all__ = ["BearerTokenGuard", "build_server", "serve_http", "serve_stdio"]

_INSTRUCTIONS = """\
Answers about indexed source code from a code graph (modules, classes, functions; calls,
imports, inheritance, type uses), each with file:line evidence. Start with `repositories` to
learn the repository names, `search` when you do not know a name, `symbol` to read a
definition, `callers` / `callees` / `importers` / `dependencies` / `impact` / `path` for
relationships, `context` for the code that answers a question. "certain" means every edge was
resolved exactly or by type; "possible" means a name match. Every answer ends with how fresh
the graph is: if files changed since it was indexed, read them before trusting the answer."""

_READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
_WRITES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def build_server(
    graph: CodeGraph, options: ServerOptions, tracker: FreshnessTracker | None = None
) -> MCPServer[Any]:
    """The server: its tools (the write tools only with `options.allow_write`) and one
    overview resource per repository. Nothing connects until the first call."""
    tracker = tracker or FreshnessTracker(graph.repositories, ttl_s=options.freshness_ttl_s)
    tools = GraphTools(graph, options, tracker)
    names = READ_TOOLS + (WRITE_TOOLS if options.allow_write else ())
    server: MCPServer[Any] = MCPServer(
        "graphrag-code",
        instructions=_INSTRUCTIONS,
        version=_version(),
        log_level="WARNING",
        tools=[
            strict_tool(getattr(tools, name), name, _WRITES if name in WRITE_TOOLS else _READ_ONLY)
            for name in names
        ],
    )

    @server.resource(
        "graphrag-code://repositories/{repo}",
        name="repository-overview",
        description="A repository's languages, size, most central symbols and entry points.",
        mime_type="text/markdown",
    )
    def overview(repo: str) -> str:
        try:
            return printable(repository_overview(tools, repo))
        except GraphRAGCodeError as exc:  # the message, not "Error reading resource"
            raise ResourceError(printable(str(exc))) from exc

    @server.resource(
        "graphrag-code://repositories",
        name="repositories",
        description="The indexed repositories (names, commits, languages) as JSON.",
        mime_type="application/json",
    )
    def repositories() -> str:
        result = tools.repositories()
        return json.dumps(result.structured_content)

    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("graphrag-code")
    except PackageNotFoundError:
        return "0"


def serve_stdio(
    graph: CodeGraph, options: ServerOptions, watcher: RepositoryWatcher | None = None
) -> None:
    """Serve on stdin/stdout until the client closes them."""
    server = build_server(graph, options, watcher.tracker if watcher else None)
    with _watching(watcher):
        server.run("stdio")


class BearerTokenGuard:
    """ASGI middleware: HTTP requests without `Authorization: Bearer <token>` get 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = b'{"error": "missing or wrong bearer token"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b'Bearer realm="graphrag-code"'),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def serve_http(
    graph: CodeGraph,
    options: ServerOptions,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    token: str | None = None,
    watcher: RepositoryWatcher | None = None,
) -> None:
    """Serve streamable HTTP at http://HOST:PORT/mcp until interrupted."""
    import uvicorn

    check_http_bind(host, token)
    server = build_server(graph, options, watcher.tracker if watcher else None)
    app: ASGIApp = server.streamable_http_app(host=host)
    if token is not None:
        app = BearerTokenGuard(app, token)
    shown = f"[{host}]" if ":" in host else host
    print(
        f"graphrag-code MCP server on http://{shown}:{port}/mcp"
        + (" (bearer token required)" if token else ""),
        file=sys.stderr,
        flush=True,
    )
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    with _watching(watcher):
        uvicorn.Server(config).run()


@contextmanager
def _watching(watcher: RepositoryWatcher | None) -> Iterator[None]:
    """Run the watcher (if any) for as long as the server serves."""
    if watcher is None:
        yield
        return
    watcher.start()
    try:
        yield
    finally:
        watcher.stop()
