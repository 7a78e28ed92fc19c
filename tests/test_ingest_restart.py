"""A Neo4j restart in the middle of indexing: the run fails clearly, the server restarts on
its data (what was committed survives; the restart maps the class archive), and rerunning the
index completes the graph with no duplicates (the same graph as a clean index).

One restart serves both subjects, the launcher's stop/start and the ingest's recovery: each
restart costs 10-15 s of the suite, and the test runs on both Neo4j lines (the launcher's
options, its Java and the class archive differ between them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphrag_code.errors import Neo4jUnavailableError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.runtime.server.endpoints import local_endpoint
from graphrag_code.runtime.server.local import LocalNeo4jServer

from .conftest import wipe
from .test_ingest import SHOP, dump


@pytest.fixture
def own_server(spare_server: LocalNeo4jServer) -> LocalNeo4jServer:
    """The tests' spare server (conftest), running and empty: this test stops it."""
    spare_server.start(attached=True)
    with _client(spare_server) as client:
        wipe(client)
    return spare_server


def _client(server: LocalNeo4jServer) -> Neo4jClient:
    endpoint = local_endpoint(server)
    # fail fast instead of retrying for 30 s while the server is down
    driver = GraphDatabase.driver(
        endpoint.uri, auth=endpoint.auth(), max_transaction_retry_time=1.0
    )
    return Neo4jClient(endpoint, driver=driver)


class _StopServerWhileWritingEdges:
    def __init__(self, server: LocalNeo4jServer) -> None:
        self.server = server
        self.stopped = False

    def stage(self, name: str, total: int | None = None) -> None:
        if name == "writing edges" and not self.stopped:
            self.stopped = True
            self.server.stop()

    def advance(self, amount: int = 1) -> None:
        return None


def test_restart_mid_ingest_then_rerun_completes(
    own_server: LocalNeo4jServer, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    before = own_server.status()
    with _client(own_server) as client:
        client.write("CREATE (:Marker {value: 42})")
        policy = client.read(
            "SHOW SETTINGS YIELD name, value "
            "WHERE name = 'db.tx_log.rotation.retention_policy' RETURN value"
        )
        assert [row["value"] for row in policy] == ["2 files"]
        ensure_schema(client, SchemaConfig())
        with pytest.raises(Neo4jUnavailableError):
            build_graph(
                SHOP, client, repo="shop", state_dir=state,
                progress=_StopServerWhileWritingEdges(own_server),
            )  # fmt: skip
    assert not own_server.status().running
    assert not own_server.stop()  # stopping twice is harmless
    # extra JVM options (GRAPHRAG_CODE_JVM_OPTIONS) reach the command line; -Xss1m is the
    # JVM's own default thread stack on 64-bit Linux, so the server runs as before
    kept, own_server.jvm_options = own_server.jvm_options, ("-Xss1m",)
    try:
        restarted = own_server.start(attached=True)  # same data directory
    finally:
        own_server.jvm_options = kept  # the spare server is shared: later starts as before
    assert restarted.pid != before.pid
    # the restart maps the classes a server archived at its exit (class_share.py): this one's,
    # or an earlier server's
    argv = Path(f"/proc/{restarted.pid}/cmdline").read_bytes().split(b"\0")
    assert any(arg.startswith(b"-XX:SharedArchiveFile=") for arg in argv), argv
    assert b"-Xss1m" in argv
    with _client(own_server) as client:
        assert client.read("MATCH (m:Marker) RETURN m.value AS v") == [{"v": 42}]
        partial = client.read("MATCH (r:Repository {name: 'shop'}) RETURN r.status AS s")
        assert partial == [{"s": "indexing"}]  # the nodes written before the stop survive
        rerun = build_graph(SHOP, client, repo="shop", state_dir=state)
        assert rerun.mode == "full"
        recovered = dump(client, "shop")
        duplicates = client.read(
            "MATCH (n:Code {repo: 'shop'}) WITH n.id AS id, count(*) AS c WHERE c > 1 "
            "RETURN count(*) AS n"
        )
        assert duplicates == [{"n": 0}]
        GraphWriter(client, "shop").delete_repository()
        build_graph(SHOP, client, repo="shop", state_dir=tmp_path / "clean")
        assert dump(client, "shop") == recovered
