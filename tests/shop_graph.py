"""The shop fixture indexed into Neo4j with hashing-embedder vectors, shared by test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe

SHOP = Path(__file__).parent / "fixtures" / "shop"
REPO = "shop"


def embed_with_hashing(client: Neo4jClient, repo: str, embedder: HashingEmbedder) -> None:
    """Vectors from the hashing embedder on every node of `repo` (tests skip the embed stage)."""
    rows = client.read(
        "MATCH (n:Code {repo: $repo}) RETURN n.id AS id, n.search_text AS text", {"repo": repo}
    )
    vectors = embedder.embed_documents([row["text"] for row in rows])
    client.write_batches(
        "UNWIND $rows AS row MATCH (n:Code {id: row.id}) "
        "CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)",
        [{"id": r["id"], "vector": v} for r, v in zip(rows, vectors, strict=True)],
    )


@pytest.fixture(scope="module", name="shop_graph")
def shop_graph_fixture(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CodeGraph]:
    """The shop fixture indexed with vectors from the hashing embedder."""
    wipe(session_client)
    drop_search_indexes(session_client)
    embedder = HashingEmbedder()
    settings = Settings(embedder="hashing")
    ensure_schema(
        session_client,
        SchemaConfig(dimensions=embedder.dimensions, model=embedder.name),
    )
    build_graph(SHOP, session_client, repo=REPO, state_dir=tmp_path_factory.mktemp("state"))
    embed_with_hashing(session_client, REPO, embedder)
    graph = CodeGraph(settings, client=session_client, embedder=embedder)
    yield graph
    drop_search_indexes(session_client)
