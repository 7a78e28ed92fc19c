"""The client's error paths that need no server: a Neo4j that is down is a clear error."""

from __future__ import annotations

import time

import neo4j as neo4j_driver
import pytest
from pydantic import SecretStr

from graphrag_code.errors import Neo4jUnavailableError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.runtime.server.local import free_port


def test_a_read_from_a_server_that_is_down_is_retried_then_a_clear_error() -> None:
    uri = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there
    endpoint = Neo4jEndpoint(uri, "neo4j", SecretStr("not-printed-anywhere"), "neo4j", "env")
    with Neo4jClient(endpoint) as client:
        started = time.perf_counter()
        with pytest.raises(Neo4jUnavailableError) as caught:
            client.read("RETURN 1 AS one")
        waited = time.perf_counter() - started
    assert uri.split("//")[1] in str(caught.value)
    assert "not-printed-anywhere" not in str(caught.value)
    assert waited >= 2.5  # it tried again (0.1 + 0.5 + 2 s of pauses) before giving up


def test_reads_return_what_the_drivers_data_returns(
    neo4j: Neo4jClient, neo4j_endpoint: Neo4jEndpoint
) -> None:
    """Rows of plain values skip the driver's recursive copy; rows with nodes, relationships
    or paths at any depth come back exactly as the driver's `Record.data()` makes them."""
    neo4j.write("CREATE (:Probe {name: 'a'})-[:LINKS {w: 2}]->(:Probe {name: 'b'})")
    queries = [
        "RETURN 1 AS one, 'x' AS text, [true, null] AS flags, {a: [{b: 1.5}]} AS nested",
        "MATCH (a:Probe {name: 'a'})-[r]->(b) RETURN a.name AS name, {node: b} AS wrapped, "
        "[r] AS rels, a",
        "MATCH p = (:Probe)-[:LINKS]->(:Probe) RETURN p, date('2026-11-30') AS day",
    ]
    with neo4j_driver.GraphDatabase.driver(
        neo4j_endpoint.uri, auth=neo4j_endpoint.auth()
    ) as driver:
        for query in queries:
            records, _, _ = driver.execute_query(query, database_=neo4j_endpoint.database)
            assert neo4j.read(query) == [record.data() for record in records], query
    assert neo4j.read("RETURN 1 AS one, [{n: [1, 'x']}] AS rows") == [
        {"one": 1, "rows": [{"n": [1, "x"]}]}
    ]
