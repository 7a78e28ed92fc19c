"""Endpoints: NEO4J_URI when set, else the managed local server (started on demand)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import SecretStr

from ...errors import Neo4jUnavailableError
from ...settings import Settings
from ..endpoint import Neo4jEndpoint, split_credentials
from .local import LocalNeo4jServer, free_port

__all__ = ["local_endpoint", "local_server", "resolve_endpoint", "temporary_local_server"]


def local_server(settings: Settings) -> LocalNeo4jServer:
    """The managed local server described by `settings`."""
    return LocalNeo4jServer(
        settings.neo4j_home,
        cache_dir=settings.cache_dir,
        neo4j_version=settings.neo4j_version,
        bolt_port=settings.bolt_port,
        http_port=settings.http_port,
        auth=settings.local_auth,
        heap=settings.heap,
        pagecache=settings.pagecache,
        tx_log_retention=settings.tx_log_retention,
        java_home=settings.java_home,
        jvm_options=settings.jvm_arguments,
    )


def resolve_endpoint(settings: Settings, *, start_local: bool = True) -> Neo4jEndpoint:
    """NEO4J_URI when set; otherwise the managed local server (started if `start_local`).

    Credentials written into NEO4J_URI (`bolt://user:secret@host`) are taken out of it and
    used when NEO4J_USERNAME / NEO4J_PASSWORD do not say otherwise.
    """
    if settings.neo4j_uri:
        uri, user, password = split_credentials(settings.neo4j_uri)
        username = settings.neo4j_username
        if user is not None and "neo4j_username" not in settings.model_fields_set:
            username = user
        return Neo4jEndpoint(
            uri=uri,
            username=username,
            password=settings.neo4j_password or password,
            database=settings.neo4j_database,
            source="env",
        )
    server = local_server(settings)
    if start_local:
        server.start()
    return local_endpoint(server, database=settings.neo4j_database)


def local_endpoint(server: LocalNeo4jServer, *, database: str = "neo4j") -> Neo4jEndpoint:
    """The address and credentials of a running managed local server."""
    status = server.status()
    if not status.running or status.bolt_uri is None:
        raise Neo4jUnavailableError(
            "the local Neo4j server is not running; start it with `graphrag-code neo4j start` "
            "or set NEO4J_URI",
            address=f"bolt://127.0.0.1:{server.bolt_port}",
        )
    password = server.password()
    return Neo4jEndpoint(
        uri=status.bolt_uri,
        username="neo4j",
        password=SecretStr(password) if password is not None else None,
        database=database,
        source="local",
    )


@contextmanager
def temporary_local_server(
    settings: Settings,
    *,
    browser: bool = False,
    heap: str = "1g",
    pagecache: str = "256m",
) -> Iterator[tuple[LocalNeo4jServer, Neo4jEndpoint]]:
    """A throwaway local server on free ports in a temporary directory, stopped on exit and
    tied to this process (tests, benchmarks that must not touch the user's server)."""
    with tempfile.TemporaryDirectory(prefix="graphrag-code-neo4j-") as home:
        server = LocalNeo4jServer(
            Path(home),
            cache_dir=settings.cache_dir,
            neo4j_version=settings.neo4j_version,
            bolt_port=free_port(),
            http_port=free_port() if browser else 0,
            heap=heap,
            pagecache=pagecache,
            tx_log_retention=settings.tx_log_retention,
            java_home=settings.java_home,
            jvm_options=settings.jvm_arguments,
        )
        server.start(attached=True)
        try:
            yield server, local_endpoint(server)
        finally:
            server.stop()
