"""File-level scores of one history question, and the results of a run.

Each search hit counts for the file (Module node) it is defined in; a question is answered
when its changed files are among the files of the top hits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...retrieval.search import Hit
from ..ablation import Ablation
from ..metrics import Aggregate, accuracy_at_k, recall_at_k
from .questions import HistoryQuestion, QuestionSet, SkippedCommit

__all__ = [
    "KS",
    "AblationResult",
    "HistoryResult",
    "QuestionOutcome",
    "file_ranking",
    "metric_names",
    "score_files",
]

KS = (1, 5, 10)
"""Cut-offs of Acc@k; Recall and MRR are taken at the deepest."""


def metric_names(ks: Sequence[int] = KS) -> list[str]:
    """Column order for tables: Acc@k (any file), Acc_all@k (every file), Recall, MRR."""
    deepest = max(ks)
    return [
        *(f"acc@{k}" for k in ks),
        *(f"acc_all@{k}" for k in ks),
        f"recall@{deepest}",
        f"mrr@{deepest}",
    ]


def file_ranking(hits: Sequence[Hit], modules: Mapping[str, str]) -> list[str]:
    """The file (Module id, looked up by path) of each hit, in rank order; a hit in no known
    file keeps its own id, so it can never match."""
    return [modules.get(hit.path, hit.id) for hit in hits]


def score_files(
    ranking: Sequence[str], relevant: Collection[str], ks: Sequence[int] = KS
) -> dict[str, float]:
    """File-level scores of one question, cut at k *hits* (not k distinct files).

    acc@k: some answer file is among the files of the top k hits; acc_all@k: all of them are
    (LocAgent's strict Acc@k); recall@K and mrr@K at the deepest cut-off K, by hit rank.
    """
    wanted = set(relevant)
    scores = {f"acc@{k}": 1.0 if wanted.intersection(ranking[:k]) else 0.0 for k in ks}
    scores.update({f"acc_all@{k}": accuracy_at_k(ranking[:k], wanted, k) for k in ks})
    deepest = max(ks)
    scores[f"recall@{deepest}"] = recall_at_k(ranking[:deepest], wanted, deepest)
    first = next((rank for rank, f in enumerate(ranking[:deepest], 1) if f in wanted), None)
    scores[f"mrr@{deepest}"] = 1.0 / first if first else 0.0
    return scores


@dataclass(frozen=True)
class QuestionOutcome:
    """One question under one ablation: its answer files, the hits, and the scores."""

    question: HistoryQuestion
    relevant: tuple[str, ...]
    hits: tuple[Hit, ...]
    files: tuple[str, ...]
    scores: Mapping[str, float]
    seconds: float

    @property
    def category(self) -> str:
        return "single-file" if len(self.relevant) == 1 else "multi-file"


@dataclass(frozen=True)
class AblationResult:
    ablation: Ablation
    outcomes: tuple[QuestionOutcome, ...]
    summary: Aggregate


@dataclass(frozen=True)
class HistoryResult:
    repo: str
    questions: QuestionSet
    ablations: tuple[AblationResult, ...]
    unindexed: tuple[SkippedCommit, ...]
    ks: tuple[int, ...] = KS
    seconds: Mapping[str, float] = field(default_factory=dict)

    @property
    def scored(self) -> int:
        return self.ablations[0].summary.overall.queries if self.ablations else 0

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (`results`: ablation -> metric -> mean)."""
        skipped = Counter(self.questions.skipped_counts())
        skipped.update(s.reason.value for s in self.unindexed)
        first = self.ablations[0].summary if self.ablations else None
        return {
            "benchmark": "history",
            "repo": self.repo,
            "source": str(self.questions.root),
            "head": self.questions.head,
            "revision": self.questions.options.revision.value,
            "max_files": self.questions.options.max_files,
            "questions": self.scored,
            "categories": {
                name: s.queries for name, s in (first.by_category.items() if first else ())
            },
            "skipped": dict(skipped.most_common()),
            "metrics": metric_names(self.ks),
            "results": {
                a.ablation.name: {m: round(v, 6) for m, v in a.summary.overall.means.items()}
                for a in self.ablations
            },
            "by_category": {
                a.ablation.name: {
                    category: {m: round(v, 6) for m, v in summary.means.items()}
                    for category, summary in a.summary.by_category.items()
                }
                for a in self.ablations
            },
            "seconds": {name: round(value, 3) for name, value in self.seconds.items()},
        }
