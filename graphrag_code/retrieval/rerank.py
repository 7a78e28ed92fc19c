"""A second stage behind the `Reranker` protocol: a linear model over what the legs already know.

No cross-encoder ships inside a package the registries serve (checked: PyPI wheels and Maven
jars carry bi-encoders only; every reranker package downloads its weights from a model hub at
run time), so the reranker is built from what the search has: each candidate's reciprocal
rank in each leg and in the fusion, its cosine and relative BM25 score, whether the graph
reached it only through name-matched edges, its relative PageRank, its kind, and how many of
the question's words its qualified name holds. `LinearReranker` scores the fused top `depth`
with fixed weights and reorders them; the rest keep their order below. The weights are fitted
offline on one question set and evaluated on another (`benchmarks/retrieval/reranker.py`,
BENCHMARKS.md), so they are data here, not code to train.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..text import split_identifier
from .question import Intent, analyse
from .search import Hit

__all__ = ["FEATURES", "FITTED_WEIGHTS", "LinearReranker", "features"]

FEATURES = (
    "rr_vector",
    "rr_text",
    "rr_graph",
    "rr_fused",
    "vector_score",
    "text_score",
    "possible",
    "pagerank",
    "module",
    "class",
    "function",
    "method",
    "name_overlap",
    "name_in_question",
)
"""The features of one candidate, in the order of `LinearReranker.weights`."""

FITTED_WEIGHTS = (
    3.382, 1.165, 0.342, 1.534, -0.203, 0.791, 0.0, -0.291,
    -2.48, -3.788, -3.008, -2.733, 0.676, 0.664,
)  # fmt: skip
"""Logistic regression on the concept and definition questions of requests and flask (bge-small
vectors; `benchmarks/retrieval/reranker.py`), held out on click's: `search()` MRR@10 0.685 -> 0.709
(BENCHMARKS.md §9). The kind weights act as the intercept (exactly one kind is 1)."""

RERANKED_INTENTS = frozenset({Intent.CONCEPT, Intent.DEFINITION})
"""The intents it was fitted on; relationship questions are the graph leg's (MRR .96)."""

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STOP = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is",
        "it", "of", "on", "or", "that", "the", "this", "to", "with", "what", "where", "which",
        "how", "does", "do", "if", "when", "not",
    }
)  # fmt: skip


def _words(text: str) -> set[str]:
    found: set[str] = set()
    for identifier in _WORD.findall(text):
        found.update(part for part in split_identifier(identifier) if part not in _STOP)
    return found


def features(question: str, hits: Sequence[Hit]) -> list[list[float]]:
    """One row of `FEATURES` per hit (hits in fused order, best first). Scores are taken
    relative to the best of the list, so rows compare across questions."""
    asked = _words(question)
    top_text = max((h.leg_scores.get("text", 0.0) for h in hits), default=0.0) or 1.0
    ranks = [math.log(max(h.pagerank, 1e-12)) for h in hits]
    low, high = min(ranks, default=0.0), max(ranks, default=0.0)
    rows = []
    for position, hit in enumerate(hits, start=1):
        named = _words(hit.qualified_name)
        short = hit.qualified_name.rsplit(".", 1)[-1]
        kind = hit.kind.lower()
        rows.append(
            [
                _reciprocal(hit.ranks, "vector"),
                _reciprocal(hit.ranks, "text"),
                _reciprocal(hit.ranks, "graph"),
                1.0 / position,
                hit.leg_scores.get("vector", 0.0),
                hit.leg_scores.get("text", 0.0) / top_text,
                1.0 if hit.possible else 0.0,
                (ranks[position - 1] - low) / ((high - low) or 1.0),
                1.0 if kind == "module" else 0.0,
                1.0 if kind == "class" else 0.0,
                1.0 if kind == "function" else 0.0,
                1.0 if kind == "method" else 0.0,
                len(asked & named) / len(asked) if asked else 0.0,
                1.0 if short and short.lower() in question.lower() else 0.0,
            ]
        )
    return rows


def _reciprocal(ranks: Mapping[str, int], leg: str) -> float:
    rank = ranks.get(leg)
    return 1.0 / rank if rank else 0.0


@dataclass(frozen=True)
class LinearReranker:
    """Reorders the fused top `depth` by `weights · features`; ties keep the fused order.

    reranker = LinearReranker.fitted()
    Searcher(..., reranker=reranker)      # or CodeGraph(reranker=reranker)
    """

    weights: tuple[float, ...]
    depth: int = 20
    intents: frozenset[Intent] | None = None
    """Questions of these intents are reranked, others keep the fused order (None: all)."""

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"need {len(FEATURES)} weights, one per feature, not {self.weights}")

    @classmethod
    def fitted(cls) -> LinearReranker:
        """The shipped model: `FITTED_WEIGHTS` on concept and definition questions."""
        return cls(FITTED_WEIGHTS, intents=RERANKED_INTENTS)

    def rerank(self, question: str, hits: Sequence[Hit]) -> list[Hit]:
        if self.intents is not None and analyse(question).intent not in self.intents:
            return list(hits)
        head, tail = list(hits[: self.depth]), list(hits[self.depth :])
        rows = features(question, head)
        scores = [sum(w * x for w, x in zip(self.weights, row, strict=True)) for row in rows]
        order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
        # each hit takes the fused score of the place it now holds, so scores still descend
        # down the list (what LlamaIndex and other callers sort or cut by); `ranks` and
        # `leg_scores` keep what each leg said of it
        places = sorted((hit.score for hit in head), reverse=True)
        return [replace(head[i], score=places[n]) for n, i in enumerate(order)] + tail
