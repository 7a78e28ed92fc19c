"""A small repository's bulk writes go in few transactions (issue 56, stop 64): the groups of
`Neo4jClient.write_together` share one transaction when they are small, and are sent as
`write_batches` sends them when they are not. Offline: a stand-in driver records what the
client sends."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.model import NodeRow, SymbolKind
from graphrag_code.runtime.endpoint import Neo4jEndpoint

Groups = list[tuple[str, Sequence[Any], Mapping[str, Any]]]


class _Result:
    def consume(self) -> None:
        return None


class _Driver:
    """Records each transaction as the list of (query, rows) it ran."""

    execute_query_bookmark_manager = None

    def __init__(self) -> None:
        self.transactions: list[list[tuple[str, list[Any]]]] = []

    def execute_query(self, query: str, parameters: dict[str, Any], **_options: Any) -> Any:
        self.transactions.append([(query, list(parameters.get("rows", [])))])
        return [], None, None

    @contextmanager
    def session(self, **_options: Any) -> Iterator[_Driver]:
        yield self

    def execute_write(self, work: Callable[[Any], None]) -> None:
        ran: list[tuple[str, list[Any]]] = []
        self.transactions.append(ran)

        class _Tx:
            def run(self, query: str, parameters: dict[str, Any]) -> _Result:
                ran.append((query, list(parameters["rows"])))
                return _Result()

        work(_Tx())


def _client() -> tuple[Neo4jClient, _Driver]:
    driver = _Driver()
    endpoint = Neo4jEndpoint(
        uri="bolt://127.0.0.1:9", username="neo4j", password=None, database="neo4j", source="env"
    )
    return Neo4jClient(endpoint, driver=driver), driver  # type: ignore[arg-type]


def test_small_groups_share_one_transaction_in_order() -> None:
    client, driver = _client()
    seen: list[int] = []
    groups: Groups = [("A", [1, 2], {"k": 1}), ("B", [], {}), ("C", [3], {})]
    assert client.write_together(groups, batch_size=10, progress=seen.append) == 3
    assert driver.transactions == [[("A", [1, 2]), ("C", [3])]]
    assert seen == [3]


def test_groups_over_the_budget_go_as_write_batches() -> None:
    client, driver = _client()
    groups: Groups = [("A", [1, 2, 3], {}), ("B", [4, 5], {})]
    assert client.write_together(groups, batch_size=2) == 5
    assert driver.transactions == [[("A", [1, 2])], [("A", [3])], [("B", [4, 5])]]
    client, driver = _client()
    texts: Groups = [("A", ["x" * 6], {}), ("B", ["y" * 6], {})]
    client.write_together(texts, batch_size=10, max_chars=10)
    assert len(driver.transactions) == 2


def test_a_writer_that_created_the_nodes_sends_no_reach_delete() -> None:
    client, driver = _client()
    writer = GraphWriter(client, "repo")
    writer.create_nodes([], {})
    writer.delete_all_reach_edges()
    assert driver.transactions == []


def test_a_small_repository_counts_its_nodes_once() -> None:
    """Progress counts nodes, not the CONTAINS and DEFINES rows sent in the same transaction
    (a flask index printed "writing nodes 866/433")."""
    client, driver = _client()
    rows = [
        NodeRow("r:m", SymbolKind.MODULE, None, {}),
        NodeRow("r:m.f", SymbolKind.FUNCTION, "r:m", {}),
        NodeRow("r:m.C", SymbolKind.CLASS, "r:m", {}),
    ]
    seen: list[int] = []
    GraphWriter(client, "repo").create_nodes(rows, {}, progress=seen.append)
    assert sum(seen) == len(rows)
    assert len(driver.transactions) == 1
    assert sum(len(sent) for _query, sent in driver.transactions[0]) == 3 + 1 + 2
