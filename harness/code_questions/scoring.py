"""Scores of the answers: Recall, MRR, nDCG and strict Acc@k per category, spelling and
package, and the latency and vector-leg figures of the report."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from functools import partial

from graphrag_code.evaluation.metrics import (
    Metric,
    Summary,
    accuracy_at_k,
    aggregate,
    mrr,
    ndcg_at_k,
    recall_at_k,
)
from graphrag_code.evaluation.metrics import score_queries as _score_queries

from .questions import CodeQuestion
from .running import Answer

__all__ = [
    "METRIC_NAMES",
    "by_variant",
    "code_metrics",
    "latency",
    "percentile",
    "score_answers",
    "vector_leg",
]

METRIC_NAMES = ("R@1", "R@5", "R@10", "MRR", "nDCG@10", "Acc@5", "Acc@10")


def code_metrics() -> dict[str, Metric]:
    """Recall@1/5/10, MRR (of the top 10), nDCG@10 and strict Acc@5/10 (LocAgent)."""
    return {
        "R@1": partial(recall_at_k, k=1),
        "R@5": partial(recall_at_k, k=5),
        "R@10": partial(recall_at_k, k=10),
        "MRR": partial(mrr, k=10),
        "nDCG@10": partial(ndcg_at_k, k=10),
        "Acc@5": partial(accuracy_at_k, k=5),
        "Acc@10": partial(accuracy_at_k, k=10),
    }


def score_answers(
    answers: Sequence[Answer], *, by: Callable[[CodeQuestion], str] | None = None
) -> dict[str, Summary]:
    """Mean metrics per group (default: category, plus "all"): {group: Summary}."""
    group = by or (lambda q: q.category.value)
    run = {a.question.id: list(a.ranking) for a in answers}
    qrels = {a.question.id: a.question.relevant for a in answers}
    per_query = _score_queries(run, qrels, code_metrics())
    summary = aggregate(per_query, {a.question.id: group(a.question) for a in answers})
    return {"all": summary.overall, **summary.by_category}


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def latency(answers: Sequence[Answer]) -> dict[str, float]:
    # the search call without the query embedding (cached after the first ablation anyway)
    values = [a.timings_ms.get("query", 0.0) + a.timings_ms.get("fuse", 0.0) for a in answers]
    return {"p50": round(percentile(values, 50), 2), "p95": round(percentile(values, 95), 2)}


def vector_leg(answers: Sequence[Answer], candidates: int) -> dict[str, float]:
    sizes = [a.leg_sizes["vector"] for a in answers if "vector" in a.leg_sizes]
    if not sizes:
        return {}
    return {
        "mean": round(statistics.fmean(sizes), 2),
        "short": round(sum(1 for n in sizes if n < candidates) / len(sizes), 4),
    }


def by_variant(answers: Sequence[Answer]) -> dict[str, Summary]:
    scores = score_answers(answers, by=lambda q: f"{q.category.value}/{q.variant}")
    return {key: s for key, s in scores.items() if key != "all" and not key.endswith("/")}
