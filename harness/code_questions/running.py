"""Asking questions under one ablation: our search, or the neo4j-graphrag baseline, and the
ids each answer is scored on."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphrag_code.embedding.base import Embedder, WrappedEmbedder
from graphrag_code.errors import ConfigurationError
from graphrag_code.evaluation.ablation import Ablation
from graphrag_code.progress import ProgressReporter
from graphrag_code.retrieval.search import Searcher

from .questions import Category, CodeQuestion

if TYPE_CHECKING:
    from ..baselines import HybridRetrieverBaseline

__all__ = ["Answer", "CachedQueries", "run_ablation", "scored_ranking"]


@dataclass(frozen=True)
class Answer:
    """What one configuration returned for one question, and the ids that were scored."""

    question: CodeQuestion
    ablation: str
    ranking: tuple[str, ...]  # scored ids, best first (impact: modules)
    hits: tuple[Mapping[str, Any], ...]  # id, score, per-leg ranks, as returned
    timings_ms: Mapping[str, float]
    intent: str = ""
    error: str | None = None  # the baseline's failed queries (Lucene parse errors)
    leg_sizes: Mapping[str, int] = field(default_factory=dict)  # hits per leg, in the repo

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "answer",
            "question_id": self.question.id,
            "category": self.question.category.value,
            "variant": self.question.variant,
            "question": self.question.question,
            "repo": self.question.repo,
            "relevant": list(self.question.relevant),
            "ablation": self.ablation,
            "intent": self.intent,
            "ranking": list(self.ranking),
            "hits": [dict(hit) for hit in self.hits],
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
            "leg_sizes": dict(self.leg_sizes),
            "error": self.error,
        }


def _plain_id(node_id: str) -> str:
    # `#2` (redefinitions), `#def` and `@path` (shadowed names) are our id scheme's, not the
    # oracles': the same qualified name counts as the same symbol
    return node_id.split("#", 1)[0].split("@", 1)[0]


def scored_ranking(
    question: CodeQuestion, hits: Iterable[tuple[str, str]], modules: Mapping[str, str]
) -> tuple[str, ...]:
    """The ids scored for `hits` ((id, path) pairs, best first), first occurrences only.
    Impact questions are answered by files: every hit counts as the module of its path."""
    ranking: dict[str, None] = {}
    for node_id, path in hits:
        if question.category is Category.IMPACT:
            module = modules.get(path)
            if module is None:
                continue  # a hit outside the package's modules answers nothing here
            ranking.setdefault(f"{question.repo}:{module}", None)
        else:
            ranking.setdefault(_plain_id(node_id), None)
    return tuple(ranking)


class CachedQueries(WrappedEmbedder):
    """An `Embedder` that computes each query vector once: the ablations ask the same
    questions, and the time of the first computation is kept for the record."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.vectors: dict[str, list[float]] = {}
        self.seconds: dict[str, float] = {}

    def embed_query(self, text: str) -> list[float]:
        if text not in self.vectors:
            started = time.perf_counter()
            self.vectors[text] = self.inner.embed_query(text)
            self.seconds[text] = time.perf_counter() - started
        return self.vectors[text]


def _our_answer(
    searcher: Searcher,
    question: CodeQuestion,
    ablation: Ablation,
    *,
    k: int,
    modules: Mapping[str, str],
) -> Answer:
    options = ablation.options(question.question, k=k)
    started = time.perf_counter()
    result = searcher.search(question.question, repo=question.repo, options=options)
    timings = {**result.timings_ms, "total": (time.perf_counter() - started) * 1000}
    hits = tuple(
        {"id": h.id, "score": round(h.score, 6), "ranks": dict(h.ranks), "path": h.path}
        for h in result.hits
    )
    ranking = scored_ranking(question, ((h.id, h.path) for h in result.hits), modules)
    sizes = {leg: len(ids) for leg, ids in result.legs.items()}
    intent = result.question.intent.value
    return Answer(question, ablation.name, ranking, hits, timings, intent, leg_sizes=sizes)


def _baseline_answer(
    baseline: HybridRetrieverBaseline,
    question: CodeQuestion,
    *,
    k: int,
    modules: Mapping[str, str],
) -> Answer:
    found = baseline.search(question.question, repo=question.repo, k=k)
    hits = tuple(
        {"id": h.id, "score": round(h.score, 6), "ranks": {"baseline": n}, "path": h.path}
        for n, h in enumerate(found.hits, start=1)
    )
    ranking = scored_ranking(question, ((h.id, h.path) for h in found.hits), modules)
    timings = {"query": found.seconds * 1000, "embed": found.embed_seconds * 1000}
    sizes = {"all repositories": found.returned, "repository": found.kept}
    name = "neo4j-graphrag"
    return Answer(question, name, ranking, hits, timings, error=found.error, leg_sizes=sizes)


def run_ablation(
    searcher: Searcher,
    questions: Sequence[CodeQuestion],
    ablation: Ablation,
    *,
    k: int = 10,
    modules: Mapping[str, str] | None = None,
    baseline: HybridRetrieverBaseline | None = None,
    progress: ProgressReporter | None = None,
) -> list[Answer]:
    """Ask every question once under `ablation`. `modules`: path -> module name, for scoring
    impact questions; `baseline`: a `harness.baselines.HybridRetrieverBaseline`."""
    modules = modules or {}
    if ablation.baseline and baseline is None:
        raise ConfigurationError("the neo4j-graphrag ablation needs a baseline retriever")
    answers = []
    for question in questions:
        if ablation.baseline:
            assert baseline is not None
            answers.append(_baseline_answer(baseline, question, k=k, modules=modules))
        else:
            answers.append(_our_answer(searcher, question, ablation, k=k, modules=modules))
        if progress is not None:
            progress.advance()
    return answers
