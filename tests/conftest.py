"""Shared fixtures: ONE real Neo4j server for the whole test session.

Where it comes from, in order: `NEO4J_URI` (any existing server), a testcontainers Neo4j when a
Docker engine answers, else the managed local launcher on a free port in a temporary directory
(the case on machines without Docker, CI included).

`GRAPHRAG_CODE_TEST_NEO4J_VERSION` picks the Neo4j line of every server the tests start (the
session's and those a test starts itself); `./run tests` runs the suite on 5.26 LTS, then the
tests marked `integration` (every test that reaches a server: marked here, from its
fixtures) on the newest calendar release, less those marked `lifecycle` (they start, kill
and restart servers of their own: our launcher and recovery, the same code for every line) and
`front_end` (a front end — the CLI, notebooks, a language's parser and linker — over Cypher
that the other server tests run on both lines).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.runtime.server.endpoints import temporary_local_server
from graphrag_code.runtime.server.local import LocalNeo4jServer, free_port
from graphrag_code.settings import Settings

TEST_NEO4J_VERSION = os.environ.get("GRAPHRAG_CODE_TEST_NEO4J_VERSION")
# fixture repositories carry their own test suites (tests/fixtures/ledger/tests): data, not ours
collect_ignore = ["fixtures"]


def _docker_answers() -> bool:
    """True when a Docker engine answers (the docker CLI alone is not enough)."""
    socket_path = Path("/var/run/docker.sock")
    if not os.environ.get("DOCKER_HOST") and not socket_path.exists():
        return False
    import docker  # type: ignore[import-untyped]

    try:
        client = docker.from_env(timeout=3)
    except docker.errors.DockerException:
        return False
    try:
        client.ping()
    except docker.errors.DockerException:
        return False
    finally:
        client.close()
    return True


_SERVER_FIXTURES = frozenset({"neo4j_endpoint", "settings", "spare_server"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that reaches a Neo4j server (through the session's or its own) as
    `integration`, so `pytest -m integration` reruns exactly those on another Neo4j line."""
    for item in items:
        if _SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def settings() -> Settings:
    """Defaults for tests: the user's launcher build cache is shared, data is not; servers of
    the Neo4j line under test."""
    if TEST_NEO4J_VERSION:
        return Settings(neo4j_version=TEST_NEO4J_VERSION)
    return Settings()


@pytest.fixture(scope="session")
def neo4j_endpoint(
    tmp_path_factory: pytest.TempPathFactory, settings: Settings
) -> Iterator[Neo4jEndpoint]:
    if os.environ.get("NEO4J_URI"):
        yield Neo4jEndpoint(
            uri=os.environ["NEO4J_URI"],
            username=os.environ.get("NEO4J_USERNAME", "neo4j"),
            password=SecretStr(os.environ.get("NEO4J_PASSWORD", "")),
            database=os.environ.get("NEO4J_DATABASE", "neo4j"),
            source="env",
        )
        return
    if _docker_answers():
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer(f"neo4j:{TEST_NEO4J_VERSION or '5.26'}") as container:
            yield Neo4jEndpoint(
                uri=container.get_connection_url(),
                username="neo4j",
                password=SecretStr(container.password),
                database="neo4j",
                source="container",
            )
        return
    with temporary_local_server(settings) as (_server, endpoint):
        yield endpoint


@pytest.fixture(scope="session")
def session_client(neo4j_endpoint: Neo4jEndpoint) -> Iterator[Neo4jClient]:
    client = Neo4jClient(neo4j_endpoint)
    client.verify()
    yield client
    client.close()


@pytest.fixture(scope="session")
def spare_server(
    tmp_path_factory: pytest.TempPathFactory, settings: Settings
) -> Iterator[LocalNeo4jServer]:
    """A managed server of the tests' own, beside the session's, for the tests that drive the
    launcher itself (stop, restart, the Browser it serves, its log-retention setting). A test
    may stop and restart it but leaves it running; each start costs 10-15 s, so the tests
    share one instead of starting their own."""
    server = LocalNeo4jServer(
        tmp_path_factory.mktemp("spare-home") / "home",
        cache_dir=settings.cache_dir,
        neo4j_version=settings.neo4j_version,
        bolt_port=free_port(),
        http_port=free_port(),
        heap="512m",
        pagecache="64m",
        tx_log_retention="2 files",
        jvm_options=settings.jvm_arguments,
    )
    server.start(attached=True)
    yield server
    server.stop()


def wipe(client: Neo4jClient) -> None:
    """Delete every node (in batches) so a test starts from an empty graph."""
    while client.write("MATCH (n) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted")[
        0
    ]["deleted"]:
        pass


@pytest.fixture
def neo4j(session_client: Neo4jClient) -> Neo4jClient:
    """The session's client on an empty database (indexes are kept; they are idempotent)."""
    wipe(session_client)
    return session_client


def drop_search_indexes(client: Neo4jClient) -> None:
    """Drop every vector and full-text index: Neo4j allows one per label and property, so a
    test that needs its own index names must clear the others first."""
    rows = client.read(
        "SHOW INDEXES YIELD name, type WHERE type IN ['VECTOR', 'FULLTEXT'] RETURN name"
    )
    for row in rows:
        client.write("DROP INDEX $name IF EXISTS", {"name": row["name"]})
    client.write("MATCH (m:EmbeddingIndex) DETACH DELETE m")


def point_the_cli_at(
    monkeypatch: pytest.MonkeyPatch,
    endpoint: Neo4jEndpoint,
    cache_dir: Path,
    *,
    embedder: str | None = "hashing",
) -> None:
    """The CLI builds its Settings from the environment: point it at `endpoint`, with a cache
    of its own and the `embedder` (hashing: fast, the same code path; None: the default). An
    empty password is no password (`resolve_endpoint`)."""
    monkeypatch.setenv("NEO4J_URI", endpoint.uri)
    monkeypatch.setenv("NEO4J_USERNAME", endpoint.username)
    password = endpoint.password
    monkeypatch.setenv("NEO4J_PASSWORD", password.get_secret_value() if password else "")
    monkeypatch.setenv("NEO4J_DATABASE", endpoint.database)
    if embedder is not None:
        monkeypatch.setenv("GRAPHRAG_CODE_EMBEDDER", embedder)
    monkeypatch.setenv("GRAPHRAG_CODE_CACHE_DIR", str(cache_dir))


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path) -> None:
    """The CLI's environment pointing at the test server (`point_the_cli_at`)."""
    point_the_cli_at(monkeypatch, neo4j_endpoint, tmp_path / "cli-cache")
