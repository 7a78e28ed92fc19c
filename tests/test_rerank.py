"""The learned reranker: its features by hand, and reordering only within its depth."""

from __future__ import annotations

from dataclasses import replace

import pytest

from graphrag_code.location import Location
from graphrag_code.retrieval.rerank import FEATURES, LinearReranker, features
from graphrag_code.retrieval.search import Hit


def _hit(name: str, kind: str, ranks: dict[str, int], **scores: float) -> Hit:
    return Hit(
        id=f"r:{name}", kind=kind, qualified_name=name, location=Location("a.py"),
        signature=None, repo="r", score=0.0, ranks=ranks, leg_scores=scores,
        pagerank=scores.pop("pagerank", 0.0),
    )  # fmt: skip


HITS = [
    _hit("shop.api.create_order", "Function", {"vector": 1, "text": 2}, vector=0.8, text=4.0),
    _hit("shop.storage.SqliteStorage.save", "Method", {"text": 1}, text=8.0, pagerank=0.1),
    _hit("shop.models", "Module", {"graph": 3}, graph=0.5, pagerank=0.01),
]


def test_features_by_hand() -> None:
    rows = features("save the order in sqlite storage", HITS)
    assert len(rows) == 3
    assert all(len(row) == len(FEATURES) for row in rows)
    first, second, third = (dict(zip(FEATURES, row, strict=True)) for row in rows)
    assert first["rr_vector"] == 1.0
    assert first["rr_text"] == 0.5
    assert first["rr_fused"] == 1.0
    assert second["rr_fused"] == 0.5
    assert first["text_score"] == 0.5  # relative to the best text score of the list
    assert second["text_score"] == 1.0
    assert third["rr_graph"] == pytest.approx(1 / 3)
    assert (first["function"], second["method"], third["module"]) == (1.0, 1.0, 1.0)
    # question words: save, order, sqlite, storage; SqliteStorage.save holds three of them
    assert second["name_overlap"] == pytest.approx(3 / 4)
    assert second["name_in_question"] == 1.0  # "save"
    assert first["name_in_question"] == 0.0
    assert second["pagerank"] == 1.0  # the highest PageRank of the list
    assert first["pagerank"] == 0.0


def test_rerank_orders_by_weights_within_depth() -> None:
    by_overlap = tuple(1.0 if name == "name_overlap" else 0.0 for name in FEATURES)
    reranked = LinearReranker(by_overlap, depth=2).rerank("save sqlite storage", HITS)
    assert [h.qualified_name for h in reranked] == [
        "shop.storage.SqliteStorage.save", "shop.api.create_order", "shop.models"
    ]  # fmt: skip
    # zero weights: every score ties and the fused order stays
    unchanged = LinearReranker((0.0,) * len(FEATURES)).rerank("anything", HITS)
    assert unchanged == HITS
    # beyond the depth nothing moves
    module_first = tuple(1.0 if name == "module" else 0.0 for name in FEATURES)
    assert LinearReranker(module_first, depth=2).rerank("x", HITS)[2] is HITS[2]


def test_scores_still_descend_after_reranking() -> None:
    fused = [replace(hit, score=score) for hit, score in zip(HITS, (0.03, 0.02, 0.01), strict=True)]
    by_overlap = tuple(1.0 if name == "name_overlap" else 0.0 for name in FEATURES)
    reranked = LinearReranker(by_overlap, depth=3).rerank("save sqlite storage", fused)
    assert reranked[0].qualified_name == "shop.storage.SqliteStorage.save"
    assert [h.score for h in reranked] == [0.03, 0.02, 0.01]  # the places' scores
    assert reranked[0].ranks == {"text": 1}  # what the legs said stays with the hit


def test_weights_must_match_the_features() -> None:
    with pytest.raises(ValueError, match="one per feature"):
        LinearReranker((1.0,))


def test_the_fitted_reranker_leaves_relationship_questions_alone() -> None:
    reranker = LinearReranker.fitted()
    assert len(reranker.weights) == len(FEATURES)
    reversed_hits = list(reversed(HITS))
    # "what calls X?" is a callers question: the graph leg's order stands
    assert reranker.rerank("what calls shop.models?", reversed_hits) == reversed_hits
    # a concept question is reordered by the model (the vector leg's first hit rises)
    assert reranker.rerank("save the order", reversed_hits)[0].id == HITS[0].id


def test_codegraph_reranks_unless_turned_off() -> None:
    from graphrag_code.codegraph import CodeGraph
    from graphrag_code.settings import Settings

    assert isinstance(CodeGraph(Settings(embedder="hashing")).reranker, LinearReranker)
    assert CodeGraph(Settings(embedder="hashing", rerank=False)).reranker is None
