"""Run a query set through Neo4j, fuse, score, and record everything in a run log.

A retrieval *pass* searches every query once, both legs at `depth` (100 by default, so
Recall@100 can be computed for each leg and for the fusion). Fusions are then pure functions
of the recorded legs: a sweep over RRF weights costs no further queries.

Each pass is recorded (`write_pass`) as one run of a `RunLog`: the ``run`` record (the
configuration), one ``query`` record per query (both legs' hits with scores, in rank order,
the Lucene query, timings); each fusion scored adds an ``evaluation`` record
(`write_evaluation`: weights, means, per-query values, and, when asked, each query's fused
hits with their per-leg ranks).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from graphrag_code.embedding.base import Embedder
from graphrag_code.errors import ConfigurationError
from graphrag_code.evaluation.metrics import (
    Aggregate,
    Metric,
    Relevance,
    aggregate,
    score_queries,
    standard_metrics,
)
from graphrag_code.evaluation.runlog import RunLog
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.progress import ProgressReporter

from .beir import Query
from .search import FULLTEXT, VECTOR, FusedHit, Legs, fuse, lucene_query, search_legs

__all__ = [
    "Evaluation",
    "Fusion",
    "QueryResult",
    "RunConfig",
    "embed_queries",
    "evaluate",
    "retrieve",
    "write_evaluation",
    "write_pass",
]


@dataclass(frozen=True)
class RunConfig:
    """How a pass searches; recorded with it."""

    corpus: str
    fulltext_index: str
    vector_index: str
    field_boosts: tuple[tuple[str, float], ...] = ()
    """Per-field boosts for the Lucene query, e.g. (("title", 2.0), ("text", 1.0))."""
    depth: int = 100
    fetch: int | None = None
    """Candidates per leg before the corpus filter (default: `depth`)."""
    label: str = ""


@dataclass(frozen=True)
class Fusion:
    """RRF over the two legs (Cormack et al. 2009); a weight of 0 switches a leg off."""

    fulltext: float = 1.0
    vector: float = 1.0
    k: float = 60.0

    def __post_init__(self) -> None:
        if self.fulltext < 0 or self.vector < 0 or self.fulltext + self.vector == 0:
            raise ConfigurationError("fusion weights must be >= 0 and not both 0")

    @property
    def weights(self) -> dict[str, float]:
        return {FULLTEXT: self.fulltext, VECTOR: self.vector}

    @property
    def label(self) -> str:
        if self.vector == 0:
            return "full-text only"
        if self.fulltext == 0:
            return "vector only"
        return f"RRF k={self.k:g} text={self.fulltext:g} vector={self.vector:g}"


@dataclass(frozen=True)
class QueryResult:
    """One query of a pass: the Lucene query sent, both legs, and timings in seconds."""

    query_id: str
    lucene: str | None
    legs: Legs
    embed_seconds: float

    def fused(self, fusion: Fusion, *, limit: int) -> list[FusedHit]:
        return fuse(self.legs, weights=fusion.weights, k=fusion.k, limit=limit)


def embed_queries(
    embedder: Embedder, queries: Sequence[Query]
) -> dict[str, tuple[list[float], float]]:
    """{query id: (vector, seconds)}, one query at a time so each latency is real."""
    vectors: dict[str, tuple[list[float], float]] = {}
    for query in queries:
        started = time.perf_counter()
        vector = embedder.embed_query(query.text)
        vectors[query.id] = (vector, time.perf_counter() - started)
    return vectors


def retrieve(
    client: Neo4jClient,
    queries: Sequence[Query],
    config: RunConfig,
    *,
    vectors: Mapping[str, tuple[list[float], float]] | None,
    use_fulltext: bool = True,
    progress: ProgressReporter | None = None,
) -> list[QueryResult]:
    """One pass: both legs for every query (`vectors` None switches the vector leg off).
    `progress` gets one stage, named after the configuration's label."""
    boosts = dict(config.field_boosts) or None
    results: list[QueryResult] = []
    if progress is not None:
        progress.stage(config.label or "queries", len(queries))
    for query in queries:
        lucene = lucene_query(query.text, field_boosts=boosts) if use_fulltext else None
        vector, embed_seconds = vectors[query.id] if vectors is not None else (None, 0.0)
        legs = search_legs(
            client,
            corpus=config.corpus,
            fulltext_index=config.fulltext_index,
            vector_index=config.vector_index,
            lucene=lucene,
            vector=vector,
            depth=config.depth,
            fetch=config.fetch,
        )
        results.append(QueryResult(query.id, lucene, legs, embed_seconds))
        if progress is not None:
            progress.advance()
    return results


@dataclass(frozen=True)
class Evaluation:
    """Scores of one fusion over one pass."""

    fusion: Fusion
    per_query: Mapping[str, Mapping[str, float]]
    summary: Aggregate
    fused: Mapping[str, list[FusedHit]] = field(repr=False)


def evaluate(
    results: Sequence[QueryResult],
    qrels: Mapping[str, Relevance],
    fusion: Fusion,
    *,
    metrics: Mapping[str, Metric] | None = None,
    limit: int = 100,
    categories: Mapping[str, str] | None = None,
) -> Evaluation:
    """Fuse each query's legs, keep the top `limit`, and score (nDCG@10, Recall@100)."""
    fused = {result.query_id: result.fused(fusion, limit=limit) for result in results}
    run = {query: [hit.id for hit in hits] for query, hits in fused.items()}
    per_query = score_queries(run, qrels, metrics or standard_metrics())
    return Evaluation(fusion, per_query, aggregate(per_query, categories), fused)


def _round(value: float) -> float:
    return round(value, 6)


def write_pass(log: RunLog, config: RunConfig, results: Sequence[QueryResult]) -> str:
    """Record a pass as a run of `log`; returns its run id (for `write_evaluation`)."""
    run_id = log.start(asdict(config))
    log.write(
        run_id,
        (
            {
                "type": "query",
                "query_id": result.query_id,
                "lucene": result.lucene,
                # [id, score] pairs in rank order: rank = position + 1.
                FULLTEXT: [[h.id, _round(h.score)] for h in result.legs.fulltext],
                VECTOR: [[h.id, _round(h.score)] for h in result.legs.vector],
                "timings_ms": {
                    "embed": _round(result.embed_seconds * 1000),
                    "neo4j": _round(result.legs.seconds * 1000),
                },
            }
            for result in results
        ),
    )
    return run_id


def write_evaluation(
    log: RunLog, run_id: str, evaluation: Evaluation, *, with_hits: bool = False
) -> None:
    """Record one fusion's scores; `with_hits` adds every query's fused hits and ranks."""
    record: dict[str, Any] = {
        "type": "evaluation",
        "fusion": asdict(evaluation.fusion),
        "label": evaluation.fusion.label,
        "queries": evaluation.summary.overall.queries,
        "means": {k: _round(v) for k, v in evaluation.summary.overall.means.items()},
        "per_query": {
            q: {k: _round(v) for k, v in row.items()} for q, row in evaluation.per_query.items()
        },
    }
    if with_hits:
        record["hits"] = {
            query: [
                {"id": hit.id, "score": _round(hit.score), "ranks": dict(hit.ranks)} for hit in hits
            ]
            for query, hits in evaluation.fused.items()
        }
    log.write(run_id, [record])
