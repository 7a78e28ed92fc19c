"""Ranking metrics as small pure functions, with trec_eval's conventions.

Each metric takes one query's ranking (ids, best first) and its relevance judgements: either a
mapping id -> grade (graded; a grade <= 0 means not relevant) or a plain collection of relevant
ids (binary). Repeated ids in a ranking count at their first position only. A query without
any relevant id scores 0.0 on every metric, as in trec_eval.

    >>> ndcg_at_k(["d3", "d1", "d2"], {"d1": 1, "d2": 1}, k=3)  # doctest: +ELLIPSIS
    0.693...
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

__all__ = [
    "Aggregate",
    "Metric",
    "Relevance",
    "Summary",
    "accuracy_at_k",
    "aggregate",
    "mrr",
    "ndcg_at_k",
    "precision_at_k",
    "recall_at_k",
    "score_queries",
    "standard_metrics",
]

Relevance = Mapping[str, float] | Collection[str]
"""Judgements of one query: {id: grade} (graded) or the relevant ids (binary)."""

Metric = Callable[[Sequence[str], Relevance], float]
"""A metric with its cut-off bound, e.g. `partial(ndcg_at_k, k=10)`."""


def _gains(relevant: Relevance) -> dict[str, float]:
    if isinstance(relevant, Mapping):
        return {doc: float(grade) for doc, grade in relevant.items() if grade > 0}
    return dict.fromkeys(relevant, 1.0)


def _top(ranking: Sequence[str], k: int | None) -> list[str]:
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ValueError(f"k must be a positive integer, got {k!r}")
    seen: dict[str, None] = {}
    for doc in ranking:
        if k is not None and len(seen) == k:
            break
        seen.setdefault(doc, None)
    return list(seen)


def recall_at_k(ranking: Sequence[str], relevant: Relevance, k: int) -> float:
    """Share of the relevant ids found in the top `k` (trec_eval `recall.k`)."""
    gains = _gains(relevant)
    if not gains:
        return 0.0
    return sum(1 for doc in _top(ranking, k) if doc in gains) / len(gains)


def precision_at_k(ranking: Sequence[str], relevant: Relevance, k: int) -> float:
    """Relevant ids in the top `k`, divided by `k` even when fewer were retrieved (`P.k`)."""
    gains = _gains(relevant)
    return sum(1 for doc in _top(ranking, k) if doc in gains) / k


def mrr(ranking: Sequence[str], relevant: Relevance, k: int | None = None) -> float:
    """Reciprocal rank of the first relevant id (within the top `k` when given), else 0.

    The mean of this over queries is the MRR (trec_eval `recip_rank` has no cut-off).
    """
    gains = _gains(relevant)
    for rank, doc in enumerate(_top(ranking, k), start=1):
        if doc in gains:
            return 1.0 / rank
    return 0.0


def _dcg(gains: Sequence[float]) -> float:
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1))


def ndcg_at_k(ranking: Sequence[str], relevant: Relevance, k: int) -> float:
    """Normalised DCG at `k`, as trec_eval `ndcg_cut.k` computes it.

    Gain is the grade itself (not 2**grade - 1), discounted by log2(rank + 1); the ideal DCG
    orders all judged grades, not only the retrieved ones, and is cut at `k` too.
    """
    gains = _gains(relevant)
    if not gains:
        return 0.0
    actual = _dcg([gains.get(doc, 0.0) for doc in _top(ranking, k)])
    ideal = _dcg(sorted(gains.values(), reverse=True)[:k])
    return actual / ideal


def accuracy_at_k(ranking: Sequence[str], relevant: Relevance, k: int) -> float:
    """1.0 when EVERY relevant id is in the top `k`, else 0.0.

    The strict "Acc@k" of LocAgent (Chen et al., ACL 2025) for code localisation: a fix that
    touches three files is found only when all three are.
    """
    gains = _gains(relevant)
    if not gains:
        return 0.0
    return 1.0 if set(gains) <= set(_top(ranking, k)) else 0.0


def standard_metrics(
    ks: Sequence[int] = (10,), recall_ks: Sequence[int] = (100,)
) -> dict[str, Metric]:
    """BEIR's headline metrics by name: ``ndcg@10`` and ``recall@100`` by default."""
    metrics: dict[str, Metric] = {f"ndcg@{k}": partial(ndcg_at_k, k=k) for k in ks}
    metrics.update({f"recall@{k}": partial(recall_at_k, k=k) for k in recall_ks})
    return metrics


def score_queries(
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Relevance],
    metrics: Mapping[str, Metric],
) -> dict[str, dict[str, float]]:
    """Every metric for every judged query: {query id: {metric: value}}.

    A judged query missing from `run` scores as an empty ranking (trec_eval `-c`), so a
    retriever cannot raise its mean by failing on hard queries.
    """
    return {
        query: {name: metric(run.get(query, ()), relevant) for name, metric in metrics.items()}
        for query, relevant in qrels.items()
    }


@dataclass(frozen=True)
class Summary:
    """Mean of each metric over `queries` queries."""

    queries: int
    means: Mapping[str, float]


@dataclass(frozen=True)
class Aggregate:
    """The mean over all queries, and over each category's queries."""

    overall: Summary
    by_category: Mapping[str, Summary]


def _summary(rows: Sequence[Mapping[str, float]]) -> Summary:
    names = sorted({name for row in rows for name in row})
    means = {name: sum(row.get(name, 0.0) for row in rows) / len(rows) for name in names}
    return Summary(queries=len(rows), means=means if rows else {})


def aggregate(
    per_query: Mapping[str, Mapping[str, float]],
    categories: Mapping[str, str] | None = None,
) -> Aggregate:
    """Means over queries, overall and per category (`categories`: query id -> category).

    Queries without a category count only in the overall mean.
    """
    if not per_query:
        return Aggregate(overall=Summary(queries=0, means={}), by_category={})
    groups: dict[str, list[Mapping[str, float]]] = {}
    for query, row in per_query.items():
        category = (categories or {}).get(query)
        if category is not None:
            groups.setdefault(category, []).append(row)
    return Aggregate(
        overall=_summary(list(per_query.values())),
        by_category={name: _summary(rows) for name, rows in sorted(groups.items())},
    )
