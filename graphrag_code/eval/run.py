"""Run a query set through Neo4j, fuse, score, and record everything as JSONL.

A retrieval *pass* searches every query once, both legs at `depth` (100 by default, so
Recall@100 can be computed for each leg and for the fusion). Fusions are then pure functions
of the recorded legs: a sweep over RRF weights costs no further queries.

Each pass is written to a JSONL file as one ``run`` line (configuration, git commit), one
``query`` line per query (both legs' hits with scores, in rank order, the Lucene query,
timings) and one ``evaluation`` line per fusion scored (weights, means, per-query values,
and, when asked, each query's fused hits with their per-leg ranks).
"""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..embedding.base import Embedder
from ..errors import ConfigurationError
from ..graph.client import Neo4jClient
from .beir import Query
from .metrics import Aggregate, Metric, Relevance, aggregate, score_queries, standard_metrics
from .search import FULLTEXT, VECTOR, FusedHit, Legs, fuse, lucene_query, search_legs

__all__ = [
    "Evaluation",
    "Fusion",
    "QueryResult",
    "RunConfig",
    "RunLog",
    "embed_queries",
    "evaluate",
    "git_commit",
    "retrieve",
]

Progress = Callable[[int, int], None]


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
    progress: Progress | None = None,
) -> list[QueryResult]:
    """One pass: both legs for every query (`vectors` None switches the vector leg off)."""
    boosts = dict(config.field_boosts) or None
    results: list[QueryResult] = []
    for done, query in enumerate(queries, start=1):
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
            progress(done, len(queries))
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


def git_commit(root: Path | None = None) -> dict[str, Any]:
    """HEAD's commit and whether tracked files differ from it (None outside a checkout)."""
    cwd = root or Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}
    return {"commit": head, "dirty": bool(status.strip())}


def _round(value: float) -> float:
    return round(value, 6)


class RunLog:
    """Appends passes and their evaluations to one JSONL file (created on first write)."""

    def __init__(self, path: Path, *, context: Mapping[str, Any] | None = None) -> None:
        self.path = path
        self.context = dict(context or {})

    def _append(self, records: Sequence[Mapping[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")

    def write_pass(self, config: RunConfig, results: Sequence[QueryResult]) -> str:
        """Record a pass; returns its run id (for `write_evaluation`)."""
        run_id = uuid.uuid4().hex[:12]
        header = {
            "type": "run",
            "run_id": run_id,
            "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "config": asdict(config),
            "git": git_commit(),
            **self.context,
        }
        lines: list[Mapping[str, Any]] = [header]
        for result in results:
            lines.append(
                {
                    "type": "query",
                    "run_id": run_id,
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
            )
        self._append(lines)
        return run_id

    def write_evaluation(
        self, run_id: str, evaluation: Evaluation, *, with_hits: bool = False
    ) -> None:
        """Record one fusion's scores; `with_hits` adds every query's fused hits and ranks."""
        record: dict[str, Any] = {
            "type": "evaluation",
            "run_id": run_id,
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
                    {"id": hit.id, "score": _round(hit.score), "ranks": dict(hit.ranks)}
                    for hit in hits
                ]
                for query, hits in evaluation.fused.items()
            }
        self._append([record])
