"""A private throwaway Neo4j for benchmarks that read its CPU, given time to start.

`temporary_local_server` waits 180 s for Bolt; on this machine, loaded by other sessions'
jobs (load average 20+), three starts in a row took longer (issue 56's peers run). This one
is the same server with a longer wait.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.runtime.server.endpoints import (
    local_endpoint,
    resolve_endpoint,
    temporary_local_server,
)
from graphrag_code.runtime.server.local import LocalNeo4jServer, free_port
from graphrag_code.settings import load_settings

__all__ = ["endpoint_for_run", "private_server"]


@contextmanager
def private_server(
    *, heap: str = "1g", pagecache: str = "512m", timeout: float = 900.0
) -> Iterator[tuple[LocalNeo4jServer, Neo4jEndpoint]]:
    """A server on free ports in a temporary folder, stopped on exit."""
    settings = load_settings()
    with tempfile.TemporaryDirectory(prefix="graphrag-code-neo4j-") as home:
        server = LocalNeo4jServer(
            Path(home),
            cache_dir=settings.cache_dir,
            neo4j_version=settings.neo4j_version,
            bolt_port=free_port(),
            http_port=0,
            heap=heap,
            pagecache=pagecache,
            tx_log_retention=settings.tx_log_retention,
            java_home=settings.java_home,
            jvm_options=settings.jvm_arguments,
        )
        server.start(attached=True, timeout=timeout)
        try:
            yield server, local_endpoint(server)
        finally:
            server.stop()


@contextmanager
def endpoint_for_run() -> Iterator[Neo4jEndpoint]:
    """NEO4J_URI when set, else a private server for this run (the shared one stays as it is)."""
    settings = load_settings()
    if settings.neo4j_uri:
        yield resolve_endpoint(settings)
        return
    with temporary_local_server(settings) as (_server, endpoint):
        yield endpoint


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process `pid` has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def endpoint_env(endpoint: Neo4jEndpoint) -> dict[str, str]:
    """The variables that point a `graphrag-code` child process at `endpoint`."""
    password = endpoint.password.get_secret_value() if endpoint.password else ""
    return {
        "NEO4J_URI": endpoint.uri,
        "NEO4J_USERNAME": endpoint.username,
        "NEO4J_PASSWORD": password,
    }
