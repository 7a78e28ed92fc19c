"""A small repository's fixed queries (issue 56, stop 65): steps that go together share one
transaction, and the schema step of a repository new to the graph answers from the one read
of every index. Offline: a stand-in driver records what the client sends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from neo4j import Record

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.crossrepo import CrossRepoLinker
from graphrag_code.graph.schema import (
    SchemaConfig,
    ensure_repository_text_index,
    ensure_repository_vector_index,
)
from graphrag_code.graph.scoping import (
    file_text_index,
    repository_text_index,
    repository_vector_index,
)
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.runtime.endpoint import Neo4jEndpoint

CONFIG = SchemaConfig(vector_index="vectors", fulltext_index="text", dimensions=4)


class _Result:
    def consume(self) -> None:
        return None


class _Driver:
    """Each write transaction as the queries it ran; each read apart."""

    execute_query_bookmark_manager = None

    def __init__(self) -> None:
        self.transactions: list[list[str]] = []
        self.reads: list[str] = []

    def execute_query(self, query: str, _parameters: dict[str, Any], **_options: Any) -> Any:
        self.transactions.append([query])
        return [Record({"written": 0})], None, None  # the label pass: nothing to label

    @contextmanager
    def session(self, **_options: Any) -> Iterator[_Driver]:
        yield self

    def run(self, query: str, _parameters: dict[str, Any]) -> list[Any]:  # a read
        self.reads.append(query)
        return []

    def execute_write(self, work: Callable[[Any], None]) -> None:
        ran: list[str] = []
        self.transactions.append(ran)

        class _Tx:
            def run(self, query: str, _parameters: dict[str, Any]) -> _Result:
                ran.append(query)
                return _Result()

        work(_Tx())


def _client() -> tuple[Neo4jClient, _Driver]:
    driver = _Driver()
    endpoint = Neo4jEndpoint(
        uri="bolt://127.0.0.1:9", username="neo4j", password=None, database="neo4j", source="env"
    )
    return Neo4jClient(endpoint, driver=driver), driver  # type: ignore[arg-type]


def test_statements_sent_together_share_one_transaction_in_order() -> None:
    client, driver = _client()
    writer = GraphWriter(client, "repo")
    published = CrossRepoLinker.publish_statement(
        "repo", packages=["b", "a"], distributions=[], dependencies=[]
    )
    assert published[1]["packages"] == ["a", "b"]
    client.write_statements([writer.start_statement("/src", "run"), published])
    assert len(driver.transactions) == 1
    start, publish = driver.transactions[0]
    assert "MERGE (r:Repository" in start
    assert "r.packages" in publish


def test_a_run_ends_with_its_wait_and_its_mark_in_one_transaction() -> None:
    client, driver = _client()
    GraphWriter(client, "repo").finish_run("run", head=None, files=1, symbols=2)
    assert len(driver.transactions) == 1
    wait, mark = driver.transactions[0]
    assert "awaitEventuallyConsistentIndexRefresh" in wait
    assert "'complete'" in mark


def test_a_new_repository_s_indexes_are_made_from_the_read_of_every_index() -> None:
    """Nothing read again; the two full-text indexes made in one transaction."""
    client, driver = _client()
    ensure_repository_text_index(client, CONFIG, "mine", indexes={})
    ensure_repository_vector_index(client, CONFIG, "mine", indexes={})
    assert driver.reads == []
    label_pass, text, vectors = driver.transactions
    assert "SET n:$($label)" in label_pass[0]
    assert [query.count("FULLTEXT INDEX") for query in text] == [1, 1]
    assert "VECTOR INDEX" in vectors[0]


def test_indexes_in_place_send_nothing() -> None:
    client, driver = _client()
    own = {
        repository_text_index("text", "mine"): {"type": "FULLTEXT"},
        file_text_index("text", "mine"): {"type": "FULLTEXT"},
        repository_vector_index("vectors", "mine"): {
            "type": "VECTOR",
            "dimensions": 4,
        },
    }
    ensure_repository_text_index(client, CONFIG, "mine", indexes=own)
    ensure_repository_vector_index(client, CONFIG, "mine", indexes=own)
    assert (driver.reads, driver.transactions) == ([], [])
