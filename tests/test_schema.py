"""ensure_schema against the real server: idempotent, ONLINE, searchable, model mismatch caught."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_code import CodeGraph, api
from graphrag_code.errors import EmbeddingMismatchError, SchemaError
from graphrag_code.graph import repo_label, repository_text_index, repository_vector_index
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import (
    SchemaConfig,
    check_vector_index,
    ensure_schema,
    fulltext_index_properties,
    vector_index_info,
)
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes
from .shop_graph import SHOP

CONFIG = SchemaConfig(
    vector_index="test_vectors", fulltext_index="test_text", dimensions=4, model="unit-test-model"
)


@pytest.fixture
def fresh(neo4j: Neo4jClient) -> Iterator[Neo4jClient]:
    drop_search_indexes(neo4j)
    yield neo4j
    drop_search_indexes(neo4j)


def _index_states(client: Neo4jClient) -> dict[str, str]:
    rows = client.read("SHOW INDEXES YIELD name, state RETURN name, state")
    return {row["name"]: row["state"] for row in rows}


def test_schema_is_idempotent_and_online(fresh: Neo4jClient) -> None:
    ensure_schema(fresh, CONFIG)
    ensure_schema(fresh, CONFIG)
    states = _index_states(fresh)
    assert states["test_vectors"] == "ONLINE"
    assert states["test_text"] == "ONLINE"
    constraints = {row["name"] for row in fresh.read("SHOW CONSTRAINTS YIELD name RETURN name")}
    assert {"code_id", "repository_name", "external_name"} <= constraints


def test_a_schema_in_place_is_checked_by_reads_alone(
    fresh: Neo4jClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every `index` command checks the schema: once it is in place that sends no statement;
    a repository's missing index is made again without the shared part's statements."""
    ensure_schema(fresh, CONFIG, repo="mine")
    own = repository_text_index("test_text", "mine")
    write = fresh.write
    sent: list[str] = []

    def counted(query: str, *rest: Any) -> list[dict[str, Any]]:
        sent.append(query)
        return write(query, *rest)

    monkeypatch.setattr(fresh, "write", counted)
    ensure_schema(fresh, CONFIG, repo="mine")
    assert sent == []
    write("DROP INDEX $name", {"name": own})
    ensure_schema(fresh, CONFIG, repo="mine")
    assert sent
    assert not [query for query in sent if "CONSTRAINT" in query or "EmbeddingIndex" in query]
    assert _index_states(fresh)[own] == "ONLINE"


def test_vector_and_fulltext_rank_the_expected_node_first(fresh: Neo4jClient) -> None:
    ensure_schema(fresh, CONFIG)
    rows = [
        {"id": "a", "embedding": [1.0, 0.0, 0.0, 0.0], "text": "parse python source files"},
        {"id": "b", "embedding": [0.0, 1.0, 0.0, 0.0], "text": "write nodes to the graph"},
        {"id": "c", "embedding": [0.7, 0.7, 0.0, 0.0], "text": "validate path names"},
    ]
    fresh.write(
        "UNWIND $rows AS row CREATE (n:Code {id: row.id, search_text: row.text}) "
        "WITH n, row CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)",
        {"rows": rows},
    )
    vector_hits = fresh.read(
        "CALL db.index.vector.queryNodes($index, 3, $vector) YIELD node, score "
        "RETURN node.id AS id, score",
        {"index": "test_vectors", "vector": [0.1, 0.9, 0.0, 0.0]},
    )
    assert [hit["id"] for hit in vector_hits][:2] == ["b", "c"]
    # the full-text index is eventually consistent (schema/create.cypher): a loaded server
    # may not have applied the write yet
    fresh.write("CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()")
    text_hits = fresh.read(
        "CALL db.index.fulltext.queryNodes($index, $q) YIELD node, score "
        "RETURN node.id AS id, score",
        {"index": "test_text", "q": "validate paths"},
    )
    assert text_hits[0]["id"] == "c"


def test_other_dimensions_fail_naming_both(fresh: Neo4jClient) -> None:
    ensure_schema(fresh, CONFIG)
    fresh.write(
        "CREATE (n:Code {id: 'x'}) WITH n "
        "CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0, 0.0, 0.0, 0.0])"
    )
    other = SchemaConfig(
        vector_index="test_vectors", fulltext_index="test_text", dimensions=8, model="bigger-model"
    )
    with pytest.raises(EmbeddingMismatchError) as caught:
        ensure_schema(fresh, other)
    message = str(caught.value)
    assert "unit-test-model with 4 dimensions" in message
    assert "bigger-model with 8 dimensions" in message
    # The stored vector is untouched by the failed call.
    assert fresh.read("MATCH (n:Code {id: 'x'}) RETURN n.embedding IS NOT NULL AS kept")[0]["kept"]


def test_other_model_same_dimensions_also_fails(fresh: Neo4jClient) -> None:
    ensure_schema(fresh, CONFIG)
    fresh.write(
        "CREATE (n:Code {id: 'x'}) WITH n "
        "CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0, 0.0, 0.0, 0.0])"
    )
    other = SchemaConfig(
        vector_index="test_vectors", fulltext_index="test_text", dimensions=4, model="another-model"
    )
    with pytest.raises(EmbeddingMismatchError, match="another-model"):
        ensure_schema(fresh, other)


def test_searches_check_the_vector_index_by_the_same_rule(fresh: Neo4jClient) -> None:
    """What `ensure_schema` accepts, a search accepts; a model it refuses, a search refuses."""
    with pytest.raises(SchemaError, match="does not exist"):
        check_vector_index(fresh, "test_vectors", model="unit-test-model", dimensions=4)
    ensure_schema(fresh, CONFIG)
    check_vector_index(fresh, "test_vectors", model="unit-test-model", dimensions=4)
    for model, dimensions in (("another-model", 4), ("unit-test-model", 8)):
        with pytest.raises(EmbeddingMismatchError) as caught:
            check_vector_index(fresh, "test_vectors", model=model, dimensions=dimensions)
        assert "unit-test-model with 4 dimensions" in str(caught.value)
        assert f"{model} with {dimensions} dimensions" in str(caught.value)


def test_reembed_replaces_index_and_drops_old_vectors(fresh: Neo4jClient) -> None:
    ensure_schema(fresh, CONFIG)
    fresh.write(
        "CREATE (n:Code {id: 'x'}) WITH n "
        "CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0, 0.0, 0.0, 0.0])"
    )
    other = SchemaConfig(
        vector_index="test_vectors", fulltext_index="test_text", dimensions=8, model="bigger-model"
    )
    ensure_schema(fresh, other, reembed=True)
    dims = fresh.read(
        "SHOW VECTOR INDEXES YIELD name, options WHERE name = 'test_vectors' "
        "RETURN options.indexConfig.`vector.dimensions` AS d"
    )[0]["d"]
    assert dims == 8
    assert fresh.read("MATCH (n:Code {id: 'x'}) RETURN n.embedding IS NULL AS gone")[0]["gone"]


def test_empty_index_switches_model_without_error(fresh: Neo4jClient) -> None:
    ensure_schema(fresh, CONFIG)
    other = SchemaConfig(
        vector_index="test_vectors", fulltext_index="test_text", dimensions=8, model="bigger-model"
    )
    ensure_schema(fresh, other)
    model = fresh.read("MATCH (m:EmbeddingIndex {name: 'test_vectors'}) RETURN m.model AS m")
    assert model[0]["m"] == "bigger-model"


def test_an_index_under_another_name_is_named_in_the_error(fresh: Neo4jClient) -> None:
    ensure_schema(fresh, CONFIG)
    other_name = SchemaConfig(
        vector_index="renamed_vectors",
        fulltext_index="test_text",
        dimensions=4,
        model="unit-test-model",
    )
    with pytest.raises(SchemaError, match="'test_vectors' already covers :Code\\(embedding\\)"):
        ensure_schema(fresh, other_name)


def _search_index(client: Neo4jClient, name: str) -> dict[str, object]:
    rows = client.read(
        "SHOW INDEXES YIELD name, properties, options WHERE name = $name "
        "RETURN properties, options.indexConfig AS config",
        {"name": name},
    )
    assert rows, f"no index {name}"
    return rows[0]


def test_indexes_take_the_form_the_server_allows(fresh: Neo4jClient) -> None:
    """2026.01+: `repo` is a filter property of the vector index, quantization set (NONE, not
    the 2026 default BINARY); 5.26: the plain index."""
    ensure_schema(fresh, CONFIG)
    vector = _search_index(fresh, "test_vectors")
    if fresh.capabilities().vector_search_filters:
        assert vector["properties"] == ["embedding", "repo"]
        assert vector["config"]["vector.quantization.type"] == "NONE"  # type: ignore[index]
    else:
        assert vector["properties"] == ["embedding"]


def test_a_vector_index_of_an_earlier_version_is_rebuilt_keeping_the_vectors(
    fresh: Neo4jClient,
) -> None:
    """On 2026.01+, a vector index created without the repository filter (by an earlier
    version) is built again with it; every vector stays and is found again."""
    fresh.write(
        "CREATE VECTOR INDEX test_vectors FOR (n:Code) ON n.embedding OPTIONS {indexConfig: "
        "{`vector.dimensions`: 4, `vector.similarity_function`: 'cosine'}}"
    )
    fresh.write(
        "MERGE (m:EmbeddingIndex {name: 'test_vectors'}) "
        "SET m.model = 'unit-test-model', m.dimensions = 4"
    )
    fresh.write(
        "UNWIND range(1, 30) AS i CREATE (n:Code {id: 'old-' + i, repo: 'old'}) "
        "WITH n CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0, 0.5, 0.0, 0.25])"
    )
    ensure_schema(fresh, CONFIG)
    filtered = fresh.capabilities().vector_search_filters
    expected = ["embedding", "repo"] if filtered else ["embedding"]
    assert _search_index(fresh, "test_vectors")["properties"] == expected
    kept = fresh.read("MATCH (n:Code {repo: 'old'}) RETURN count(n.embedding) AS vectors")
    assert kept[0]["vectors"] == 30
    hits = fresh.read(
        "CALL db.index.vector.queryNodes('test_vectors', 5, [1.0, 0.5, 0.0, 0.25]) "
        "YIELD node RETURN count(node) AS n"
    )
    assert hits[0]["n"] == 5


def test_a_repository_gets_a_full_text_index_of_its_own(fresh: Neo4jClient) -> None:
    """Nodes written before it get the repository's label first; the index covers exactly
    the repository's nodes; a second call keeps it."""
    fresh.write(
        "UNWIND range(1, 30) AS i CREATE (n:Code {id: 'r' + i, repo: CASE WHEN i <= 10 "
        "THEN 'mine' ELSE 'other' END, search_text: 'parse source ' + i})"
    )
    ensure_schema(fresh, CONFIG, repo="mine")
    name = repository_text_index("test_text", "mine")
    index = fresh.read(
        "SHOW INDEXES YIELD name, id, labelsOrTypes, properties WHERE name = $name "
        "RETURN id, labelsOrTypes AS labels, properties",
        {"name": name},
    )
    assert index[0]["labels"] == [repo_label("mine")]
    assert index[0]["properties"] == ["search_text"]
    hits = fresh.read(
        "CALL db.index.fulltext.queryNodes($name, 'parse') YIELD node "
        "RETURN collect(DISTINCT node.repo) AS repos, count(node) AS n",
        {"name": name},
    )
    assert hits[0] == {"repos": ["mine"], "n": 10}
    ensure_schema(fresh, CONFIG, repo="mine")
    again = fresh.read("SHOW INDEXES YIELD name, id WHERE name = $name RETURN id", {"name": name})
    assert again[0]["id"] == index[0]["id"]


def test_a_repository_gets_a_vector_index_of_its_own_where_search_cannot_filter(
    fresh: Neo4jClient,
) -> None:
    """On a server whose vector search filters only after the index search (5.26), the
    repository's own vector index holds its vectors alone (a query for 20 gets its 10, none of
    the 20 others); a model of another size drops it with the shared one, and indexing the
    repository again creates it for the new size. 2026.01+ filters inside the shared index and
    gets none."""
    index = repository_vector_index("test_vectors", "mine")
    fresh.write(
        "UNWIND range(1, 30) AS i CREATE (n:Code {id: 'v' + i, "
        "repo: CASE WHEN i <= 10 THEN 'mine' ELSE 'other' END}) WITH n, i "
        "CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0, toFloat(i), 0.0, 0.0])"
    )
    other = repository_vector_index("test_vectors", "other")
    ensure_schema(fresh, CONFIG, repo="mine")
    if fresh.capabilities().vector_search_filters:
        assert vector_index_info(fresh, index) is None
        return
    ensure_schema(fresh, CONFIG, repo="other")
    info = vector_index_info(fresh, index)
    assert info is not None
    assert info.dimensions == 4
    assert vector_index_info(fresh, other) is not None
    hits = fresh.read(
        "CALL db.index.vector.queryNodes($name, 20, [1.0, 5.0, 0.0, 0.0]) YIELD node "
        "RETURN collect(DISTINCT node.repo) AS repos, count(node) AS n",
        {"name": index},
    )
    assert hits[0] == {"repos": ["mine"], "n": 10}
    bigger = SchemaConfig(
        vector_index="test_vectors", fulltext_index="test_text", dimensions=8, model="bigger-model"
    )
    ensure_schema(fresh, bigger, reembed=True, repo="mine")
    assert vector_index_info(fresh, other) is None
    info = vector_index_info(fresh, index)
    assert info is not None
    assert info.dimensions == 8


def test_a_filtered_vector_index_is_not_rebuilt_again(fresh: Neo4jClient) -> None:
    """The rebuild happens once: a second ensure_schema keeps the same index."""
    ensure_schema(fresh, CONFIG)
    query = "SHOW INDEXES YIELD name, id WHERE name IN ['test_vectors', 'test_text'] RETURN id"
    before = sorted(row["id"] for row in fresh.read(query))
    ensure_schema(fresh, CONFIG)
    assert sorted(row["id"] for row in fresh.read(query)) == before


def test_indexing_creates_the_repository_index_and_deleting_drops_it(
    fresh: Neo4jClient, tmp_path: Path
) -> None:
    settings = Settings(
        embedder="hashing",
        cache_dir=tmp_path / "cache",
        vector_index="test_vectors",
        fulltext_index="test_text",
    )
    api.index_repository(SHOP, "shop", client=fresh, settings=settings, embed=False)
    name = repository_text_index("test_text", "shop")
    vectors = repository_vector_index("test_vectors", "shop")
    own_vectors = not fresh.capabilities().vector_search_filters  # 5.26: one of its own
    assert fulltext_index_properties(fresh, name) == ("search_text",)
    assert (vector_index_info(fresh, vectors) is not None) == own_vectors
    CodeGraph(settings, client=fresh).delete("shop")
    assert fulltext_index_properties(fresh, name) is None
    assert vector_index_info(fresh, vectors) is None
    assert fulltext_index_properties(fresh, "test_text") == ("search_text",)  # the shared one
