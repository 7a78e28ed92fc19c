"""The full-text indexes are eventually consistent (the server updates them after each commit,
off the writing transaction), and an index run or a deletion waits for them: what a run wrote is
searchable when it returns, and a deleted repository is gone from them. Against a real Neo4j.

These check the outcome. They cannot force the server to lag: with the wait removed they
still passed here (4,000 functions too), as the indexes caught up within the run's own last
steps. The wait is what makes the outcome hold when the server is slower than that."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.graph import file_text_index
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.scoping import repository_text_index
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import build_graph

from .conftest import drop_search_indexes, wipe

pytestmark = pytest.mark.integration

REPO = "textwait"
TEXT_INDEX = SchemaConfig().fulltext_index
# functions in the one file: each is a node whose docstring holds the word searched for
FUNCTIONS = 400


def _source(word: str) -> str:
    return "".join(
        f'def handler_{n}(event):\n    """Handle {word} event number {n}."""\n    return event\n\n'
        for n in range(FUNCTIONS)
    )


def _hits(client: Neo4jClient, index: str, word: str) -> int:
    rows = client.read(
        "CALL db.index.fulltext.queryNodes($index, $word) YIELD node "
        "WHERE node.repo = $repo RETURN count(node) AS hits",
        {"index": index, "word": word, "repo": REPO},
    )
    return int(rows[0]["hits"])


@pytest.fixture(name="indexed")
def indexed_fixture(session_client: Neo4jClient, tmp_path: Path) -> Iterator[Path]:
    wipe(session_client)
    drop_search_indexes(session_client)
    ensure_schema(session_client, SchemaConfig(), repo=REPO)
    root = tmp_path / "events"
    root.mkdir()
    (root / "handlers.py").write_text(_source("quokka"))
    build_graph(root, session_client, repo=REPO, state_dir=tmp_path / "state")
    yield root
    drop_search_indexes(session_client)


def test_the_full_text_indexes_are_updated_after_the_commit(
    indexed: Path, session_client: Neo4jClient
) -> None:
    names = [
        TEXT_INDEX,
        file_text_index(TEXT_INDEX),
        repository_text_index(TEXT_INDEX, REPO),
        file_text_index(TEXT_INDEX, REPO),
    ]
    rows = session_client.read(
        "SHOW FULLTEXT INDEXES YIELD name, options WHERE name IN $names "
        "RETURN name, options.indexConfig['fulltext.eventually_consistent'] AS eventual",
        {"names": names},
    )
    assert {row["name"]: row["eventual"] for row in rows} == dict.fromkeys(names, True)


def test_what_a_run_wrote_is_searchable_when_it_returns(
    indexed: Path, session_client: Neo4jClient, tmp_path: Path
) -> None:
    own = repository_text_index(TEXT_INDEX, REPO)
    assert _hits(session_client, own, "quokka") == FUNCTIONS
    assert _hits(session_client, TEXT_INDEX, "quokka") == FUNCTIONS
    # an incremental run rewrites the file: the old word leaves the indexes, the new one is in
    (indexed / "handlers.py").write_text(_source("wombat"))
    build_graph(indexed, session_client, repo=REPO, state_dir=tmp_path / "state")
    assert _hits(session_client, own, "wombat") == FUNCTIONS
    assert _hits(session_client, TEXT_INDEX, "wombat") == FUNCTIONS
    assert _hits(session_client, TEXT_INDEX, "quokka") == 0
    assert _hits(session_client, file_text_index(TEXT_INDEX), "wombat") == 1  # the module


def test_a_deleted_repository_is_gone_from_the_shared_index(
    indexed: Path, session_client: Neo4jClient
) -> None:
    GraphWriter(session_client, REPO).delete_repository()
    rows = session_client.read(
        "CALL db.index.fulltext.queryNodes($index, 'quokka') YIELD node RETURN count(node) AS n",
        {"index": TEXT_INDEX},
    )
    assert rows[0]["n"] == 0
