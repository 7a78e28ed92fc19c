"""Ranking metrics against hand-computed values and a brute-force nDCG reference."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from graphrag_code.evaluation.metrics import (
    accuracy_at_k,
    aggregate,
    mrr,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    score_queries,
    standard_metrics,
)

RANKING = ["d1", "d2", "d3", "d4", "d5"]


def test_recall_and_precision_by_hand() -> None:
    relevant = {"d2", "d5", "d9"}
    assert recall_at_k(RANKING, relevant, 1) == 0.0
    assert recall_at_k(RANKING, relevant, 2) == pytest.approx(1 / 3)
    assert recall_at_k(RANKING, relevant, 5) == pytest.approx(2 / 3)
    assert precision_at_k(RANKING, relevant, 2) == pytest.approx(1 / 2)
    # trec_eval P.k divides by k even when fewer than k were retrieved.
    assert precision_at_k(RANKING, relevant, 10) == pytest.approx(2 / 10)


def test_mrr_by_hand() -> None:
    assert mrr(RANKING, {"d3", "d4"}) == pytest.approx(1 / 3)
    assert mrr(RANKING, {"d3"}, k=2) == 0.0
    assert mrr(RANKING, {"zz"}) == 0.0


def test_binary_ndcg_by_hand() -> None:
    # rel at ranks 2 and 4; ideal puts both at 1 and 2.
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = 1 + 1 / math.log2(3)
    assert ndcg_at_k(RANKING, {"d2", "d4"}, 10) == pytest.approx(dcg / ideal)
    # cut at 3: only rank 2 counts, the ideal is still two relevant docs at 1 and 2.
    assert ndcg_at_k(RANKING, {"d2", "d4"}, 3) == pytest.approx((1 / math.log2(3)) / ideal)
    assert ndcg_at_k(RANKING, {"d1"}, 10) == 1.0


def test_graded_ndcg_uses_linear_gain_and_judged_ideal() -> None:
    grades = {"d1": 1, "d3": 3, "d7": 2, "d2": 0}
    dcg = 1 / math.log2(2) + 3 / math.log2(4)
    # The ideal includes d7, which was never retrieved (trec_eval builds it from the qrels).
    ideal = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(RANKING, grades, 5) == pytest.approx(dcg / ideal)
    # A mapping with 0/negative grades only is "no relevant document".
    assert ndcg_at_k(RANKING, {"d1": 0, "d2": -1}, 5) == 0.0


def test_accuracy_is_strict() -> None:
    assert accuracy_at_k(RANKING, {"d1", "d3"}, 3) == 1.0
    assert accuracy_at_k(RANKING, {"d1", "d4"}, 3) == 0.0
    assert accuracy_at_k(RANKING, {"d1", "d4"}, 4) == 1.0
    assert accuracy_at_k(RANKING, set(), 4) == 0.0


def test_duplicates_count_once_at_their_first_position() -> None:
    ranking = ["d1", "d1", "d2"]
    assert recall_at_k(ranking, {"d2"}, 2) == 1.0
    assert ndcg_at_k(ranking, {"d1"}, 3) == 1.0
    assert precision_at_k(ranking, {"d1"}, 2) == pytest.approx(0.5)


@pytest.mark.parametrize("k", [0, -1, True, 1.5])
def test_bad_cutoffs_are_refused(k: object) -> None:
    with pytest.raises(ValueError, match="k must be"):
        recall_at_k(RANKING, {"d1"}, k)  # type: ignore[arg-type]


def _reference_ndcg(ranking: list[str], grades: dict[str, int], k: int) -> float:
    """Straight from the definition: ideal = best DCG over every ordering of judged docs."""

    def dcg(docs: tuple[str, ...] | list[str]) -> float:
        total = 0.0
        for index in range(min(k, len(docs))):
            total += max(grades.get(docs[index], 0), 0) / math.log2(index + 2)
        return total

    ideal = max(dcg(order) for order in itertools.permutations(grades))
    return dcg(ranking) / ideal if ideal > 0 else 0.0


def test_ndcg_matches_brute_force_reference_on_random_data() -> None:
    rng = random.Random(7)
    pool = [f"d{i}" for i in range(12)]
    for _ in range(300):
        judged = rng.sample(pool, rng.randint(1, 6))
        grades = {doc: rng.randint(0, 3) for doc in judged}
        ranking = rng.sample(pool, rng.randint(0, 12))
        k = rng.randint(1, 12)
        expected = _reference_ndcg(ranking, grades, k)
        assert ndcg_at_k(ranking, grades, k) == pytest.approx(expected, abs=1e-12)


def test_score_queries_and_aggregate_by_category() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    run = {"q1": ["a", "x"], "q2": ["x", "b"]}  # q3 missing: scores as an empty ranking
    scores = score_queries(run, qrels, {"mrr": mrr, **standard_metrics((10,), (1,))})
    assert scores["q1"] == {"mrr": 1.0, "ndcg@10": 1.0, "recall@1": 1.0}
    assert scores["q3"] == {"mrr": 0.0, "ndcg@10": 0.0, "recall@1": 0.0}
    result = aggregate(scores, {"q1": "easy", "q2": "hard", "q3": "hard"})
    assert result.overall.queries == 3
    assert result.overall.means["mrr"] == pytest.approx(0.5)
    assert result.by_category["easy"].means["mrr"] == 1.0
    assert result.by_category["hard"].queries == 2
    assert result.by_category["hard"].means["mrr"] == pytest.approx(0.25)
    assert aggregate({}).overall.queries == 0
