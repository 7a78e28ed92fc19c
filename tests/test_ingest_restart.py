"""A Neo4j restart in the middle of indexing: the run fails clearly, rerunning it completes
the graph with no duplicates (the same graph as a clean index)."""

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


@pytest.mark.lifecycle
def test_restart_mid_ingest_then_rerun_completes(
    own_server: LocalNeo4jServer, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    with _client(own_server) as client:
        ensure_schema(client, SchemaConfig())
        with pytest.raises(Neo4jUnavailableError):
            build_graph(
                SHOP, client, repo="shop", state_dir=state,
                progress=_StopServerWhileWritingEdges(own_server),
            )  # fmt: skip
    own_server.start(attached=True)  # same data directory: the nodes written so far survive
    with _client(own_server) as client:
        partial = client.read("MATCH (r:Repository {name: 'shop'}) RETURN r.status AS s")
        assert partial == [{"s": "indexing"}]
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
