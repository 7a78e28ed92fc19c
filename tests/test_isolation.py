"""A repository's answers beside a large neighbour, and the two forms of the vector leg.

The shop fixture is searched alone, then again after a neighbour joins the same database: the
shop indexed a second time under another name (the same symbol names, for the graph leg's
name lookups) and 4,000 near copies of its nodes with vectors (for the indexes). The
neighbour holds 99 % of the vectors, so an over-fetch of the shared index by the `queryNodes`
form (at most ten times k) cannot reach the shop's own nodes.

What each server guarantees (README, "Several repositories in one database"):
- vector leg: on Neo4j 2026.01+ the `SEARCH` form filters inside the shared index; on 5.26
  the `queryNodes` form reads the shop's own vector index (graph/scoping.py): either way the
  shop's vector hits are identical with and without the neighbour. Where a search has to
  over-fetch the shared index (the `queryNodes` form forced on 2026.01+, where no repository
  index is made), the leg comes back short (shown below, not hidden);
- full-text leg, every server: the shop's own full-text index (graph/scoping.py) answers, so
  BM25's statistics are the shop's alone: identical;
- graph leg, every server: seeds and expansion stay in the repository: identical.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph import GraphWriter, SchemaConfig, VectorSearchForm, ensure_schema
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.model import NodeRow, SymbolKind
from graphrag_code.retrieval.search import Searcher, SearchResult

from .conftest import drop_search_indexes, wipe
from .shop_graph import SHOP, embed_with_hashing

REPO = "shop"
COPIES = 100  # x 40 shop nodes: 4,000 neighbour nodes
QUESTIONS = (
    "how are orders saved to the database",
    "how is the price displayed",
    "sqlite storage connect",
    "order total cents",
    "health check endpoint",
    "Where is OrderRepository defined?",
    "What calls validate?",
    "What does place_order call?",
    "What breaks if I change shop/models.py?",
    "who imports shop.models",
    "trace create_order_endpoint to the database",
)
FILLER = (
    "buffer", "token", "parse", "stream", "header", "cookie", "session", "cache", "queue",
    "worker", "thread", "lock", "socket", "request", "response", "render", "template", "field",
    "model", "query", "cursor", "commit", "record", "row", "column", "schema", "migrate",
    "signal", "event", "handler", "retry", "timeout", "encode", "decode", "config", "path",
    "file", "payment", "order", "price", "total",
)  # fmt: skip

CONFIG = SchemaConfig(dimensions=HashingEmbedder().dimensions, model=HashingEmbedder().name)
Answers = dict[tuple[VectorSearchForm, str | None, str], SearchResult]


@dataclass(frozen=True)
class Runs:
    forms: tuple[VectorSearchForm, ...]
    filtered: bool  # whether the server filters vector searches inside the index
    alone: Answers
    beside: Answers  # with the neighbour


def _add_neighbour(client: Neo4jClient, embedder: HashingEmbedder, state: Path) -> None:
    for repo in ("shop-fork", "bulk"):
        ensure_schema(client, CONFIG, repo=repo)
    build_graph(SHOP, client, repo="shop-fork", state_dir=state)
    embed_with_hashing(client, "shop-fork", embedder)
    shop = client.read(
        "MATCH (n:Code {repo: $repo}) RETURN n.kind AS kind, n.name AS name, "
        "n.qualified_name AS qualified_name, n.path AS path, n.search_text AS text",
        {"repo": REPO},
    )
    words = random.Random(7)
    rows = [
        NodeRow(
            id=f"bulk:copy{i}.{node['qualified_name']}",
            kind=SymbolKind(node["kind"]),
            parent=None,
            properties={
                "repo": "bulk",
                "kind": node["kind"],
                "name": node["name"],
                "qualified_name": f"copy{i}.{node['qualified_name']}",
                "path": f"copy{i}/{node['path']}",
                "search_text": node["text"]
                + "\n"
                + " ".join(words.choice(FILLER) for _ in range(words.randint(5, 40))),
            },
        )
        for i in range(COPIES)
        for node in shop
    ]
    GraphWriter(client, "bulk").write_nodes(rows)
    embed_with_hashing(client, "bulk", embedder)


def _answers(
    client: Neo4jClient, embedder: HashingEmbedder, forms: tuple[VectorSearchForm, ...]
) -> Answers:
    answers: Answers = {}
    for form in forms:
        searcher = Searcher(
            client,
            embedder,
            vector_index="code_embedding",
            fulltext_index="code_search_text",
            vector_form=form,
        )
        for repo in (REPO, None):
            for question in QUESTIONS:
                answers[form, repo, question] = searcher.search(question, repo=repo)
    return answers


@pytest.fixture(scope="module")
def runs(session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    client = session_client
    wipe(client)
    drop_search_indexes(client)
    embedder = HashingEmbedder()
    ensure_schema(client, CONFIG, repo=REPO)
    build_graph(SHOP, client, repo=REPO, state_dir=tmp_path_factory.mktemp("shop"))
    embed_with_hashing(client, REPO, embedder)
    forms: tuple[VectorSearchForm, ...] = (VectorSearchForm.PROCEDURE,)
    filtered = client.capabilities().vector_search_filters
    if filtered:
        forms += (VectorSearchForm.SEARCH,)
    alone = _answers(client, embedder, forms)
    _add_neighbour(client, embedder, tmp_path_factory.mktemp("fork"))
    yield Runs(forms, filtered, alone, _answers(client, embedder, forms))
    wipe(client)
    drop_search_indexes(client)


def _needs_search_form(runs: Runs) -> None:
    if VectorSearchForm.SEARCH not in runs.forms:
        pytest.skip(
            "the SEARCH form needs Neo4j 2026.01+; on 5.26 the repository's own vector index "
            "keeps the leg whole instead (tested below)"
        )


def test_both_forms_give_the_same_answers_where_the_over_fetch_suffices(runs: Runs) -> None:
    """Alone in the database, the over-fetch is not needed and both forms agree on every leg
    and every hit, for one repository and for all."""
    _needs_search_form(runs)
    for repo in (REPO, None):
        for question in QUESTIONS:
            old = runs.alone[VectorSearchForm.PROCEDURE, repo, question]
            new = runs.alone[VectorSearchForm.SEARCH, repo, question]
            assert new.legs == old.legs, question
            assert [hit.id for hit in new.hits] == [hit.id for hit in old.hits], question


def test_the_vector_leg_in_the_index_is_identical_beside_a_large_neighbour(runs: Runs) -> None:
    _needs_search_form(runs)
    for question in QUESTIONS:
        alone = runs.alone[VectorSearchForm.SEARCH, REPO, question].legs["vector"]
        beside = runs.beside[VectorSearchForm.SEARCH, REPO, question].legs["vector"]
        assert beside == alone, question


def test_the_vector_leg_of_its_own_index_is_identical_beside_a_large_neighbour(
    runs: Runs,
) -> None:
    """On 5.26 (no filter inside the vector index) the shop's vector index of its own answers
    `queryNodes`: the neighbour's 4,000 vectors are not in it."""
    if runs.filtered:
        pytest.skip(
            "on 2026.01+ the SEARCH form filters inside the shared index (tested above) and "
            "indexing makes no repository vector index"
        )
    legs = [runs.alone[VectorSearchForm.PROCEDURE, REPO, q].legs["vector"] for q in QUESTIONS]
    assert sum(1 for leg in legs if len(leg) >= 5) >= 5  # the concept questions use the leg
    for question, alone in zip(QUESTIONS, legs, strict=True):
        beside = runs.beside[VectorSearchForm.PROCEDURE, REPO, question].legs["vector"]
        assert beside == alone, question


def test_an_over_fetched_shared_vector_index_comes_back_short_beside_a_large_neighbour(
    runs: Runs,
) -> None:
    """What the shared index cannot guarantee when a search filters after it (the
    `queryNodes` form forced on 2026.01+, which has no repository vector index): it ranks
    every repository's vectors and the filter follows, so with 99 % of the vectors elsewhere
    the shop's leg is cut short."""
    if not runs.filtered:
        pytest.skip("on 5.26 the shop's own vector index answers (tested above)")
    short = [
        question
        for question in QUESTIONS
        if len(runs.beside[VectorSearchForm.PROCEDURE, REPO, question].legs["vector"])
        < len(runs.alone[VectorSearchForm.PROCEDURE, REPO, question].legs["vector"])
    ]
    assert short


@pytest.mark.parametrize("form", list(VectorSearchForm), ids=lambda form: form.value)
def test_the_graph_leg_is_identical_beside_a_large_neighbour(
    runs: Runs, form: VectorSearchForm
) -> None:
    """Where the vector leg is whole beside the neighbour. A concept question asked as a
    question seeds the graph leg with the best hits, so where the over-fetched shared index
    cuts the vector leg short (the `queryNodes` form on 2026.01+, tested above) its seeds and
    leg may differ too: those questions are left out, and at least the relationship
    questions, seeded by the names they hold, are compared."""
    if form not in runs.forms:
        _needs_search_form(runs)
    compared = 0
    for question in QUESTIONS:
        alone = runs.alone[form, REPO, question]
        beside = runs.beside[form, REPO, question]
        if runs.filtered and beside.legs["vector"] != alone.legs["vector"]:
            continue
        compared += 1
        assert beside.legs["graph"] == alone.legs["graph"], question
        assert beside.seeds == alone.seeds, question
    assert compared >= (5 if runs.filtered else len(QUESTIONS))


@pytest.mark.parametrize("form", list(VectorSearchForm), ids=lambda form: form.value)
def test_the_text_leg_is_identical_beside_a_large_neighbour(
    runs: Runs, form: VectorSearchForm
) -> None:
    """The shop's own full-text index answers: the neighbour's 4,000 copies, whose extra words
    match too, neither crowd the shop's nodes out nor change BM25's statistics."""
    if form not in runs.forms:
        _needs_search_form(runs)
    for question in QUESTIONS:
        alone = runs.alone[form, REPO, question].legs["text"]
        beside = runs.beside[form, REPO, question].legs["text"]
        assert beside == alone, question
        assert all(node.startswith(f"{REPO}:") for node in beside), question


def test_all_legs_and_the_fused_answer_are_identical_beside_a_large_neighbour(
    runs: Runs,
) -> None:
    """With every leg inside an index that keeps the shop apart (the shared vector index
    filtered inside on 2026.01+, the shop's own on 5.26), its whole answer is unchanged."""
    form = VectorSearchForm.SEARCH if runs.filtered else VectorSearchForm.PROCEDURE
    for question in QUESTIONS:
        alone = runs.alone[form, REPO, question]
        beside = runs.beside[form, REPO, question]
        assert [hit.id for hit in beside.hits] == [hit.id for hit in alone.hits], question
