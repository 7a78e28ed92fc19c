"""The learned reranker: fitted on the code questions of some packages, evaluated on another's.

Reads the question sets that `benchmarks.retrieval.code_questions` wrote (concept and definition
questions: the intents the reranker reorders) and asks them again of the same dedicated Neo4j
(its data stays in benchmarks/cache), keeping the fused top 20 with the features of
`graphrag_code.retrieval.rerank` for fitting. A logistic regression (numpy, L2) is fitted on
all packages but one and scored on the one left out, for each package in turn, end to end:
the top 10 of `search()` without a reranker against `search()` with the fitted one (which
reorders the fused top 20 before the cut), MRR@10 and R@1, and the time the reranking adds.
The weights fitted on every package but the last are shipped in
`graphrag_code/retrieval/rerank.py`.

    .venv/bin/python -m benchmarks.retrieval.code_questions --embedder bge-small  # questions, index
    .venv/bin/python -m benchmarks.retrieval.reranker --embedder bge-small
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.console import Console

from benchmarks.common.paths import RESULTS_DIR
from benchmarks.oracles.packages import parse_spec
from benchmarks.retrieval.code_questions import dedicated_client
from graphrag_code.embedding import make_embedder
from graphrag_code.retrieval.rerank import FEATURES, LinearReranker, features
from graphrag_code.retrieval.search import Hit, Searcher, SearchOptions
from graphrag_code.settings import load_settings
from harness.code_questions import DEFAULT_PACKAGES
from harness.code_questions.questions import Category, CodeQuestion, read_questions
from harness.code_questions.running import _plain_id

RESULTS = RESULTS_DIR
CATEGORIES = (Category.CONCEPT, Category.DEFINITION)


@dataclass(frozen=True)
class Sample:
    package: str
    question: CodeQuestion
    hits: tuple[Hit, ...]
    labels: tuple[bool, ...]


def collect(searcher: Searcher, package: str, questions: Sequence[CodeQuestion]) -> list[Sample]:
    samples = []
    for question in questions:
        if question.category not in CATEGORIES:
            continue
        result = searcher.search(question.question, repo=question.repo, options=SearchOptions(k=20))
        wanted = set(question.relevant)
        labels = tuple(_plain_id(hit.id) in wanted for hit in result.hits)
        samples.append(Sample(package, question, tuple(result.hits), labels))
    return samples


def end_to_end(
    searcher: Searcher, reranker: LinearReranker | None, samples: Sequence[Sample]
) -> dict[str, float]:
    """MRR@10 and R@1 of `search()` as users call it (k = 10), with `reranker` or without."""
    searcher.reranker = reranker
    reciprocal, first, fuse_ms = [], [], []
    for sample in samples:
        question = sample.question
        result = searcher.search(question.question, repo=question.repo)
        fuse_ms.append(result.timings_ms["fuse"])
        wanted = set(question.relevant)
        rank = next(
            (n for n, hit in enumerate(result.hits, 1) if _plain_id(hit.id) in wanted), None
        )
        reciprocal.append(1.0 / rank if rank else 0.0)
        first.append(1.0 if rank == 1 else 0.0)
    searcher.reranker = None
    return {
        "mrr@10": statistics.fmean(reciprocal),
        "r@1": statistics.fmean(first),
        "fuse_ms_p50": statistics.median(fuse_ms),
    }


def fit(samples: Sequence[Sample], *, depth: int, l2: float = 1e-3) -> tuple[float, ...]:
    """Logistic regression on the top `depth` candidates of every question, positives
    weighted up to balance the classes; plain gradient descent (deterministic)."""
    rows: list[list[float]] = []
    labels: list[float] = []
    for sample in samples:
        head = list(sample.hits[:depth])
        rows += features(sample.question.question, head)
        labels += [1.0 if label else 0.0 for label in sample.labels[:depth]]
    x: npt.NDArray[np.float64] = np.asarray(rows, dtype=np.float64)
    y: npt.NDArray[np.float64] = np.asarray(labels, dtype=np.float64)
    positive = max(y.sum(), 1.0)
    weight = np.where(y > 0, len(y) / (2 * positive), len(y) / (2 * max(len(y) - positive, 1)))
    w = np.zeros(x.shape[1])
    for _ in range(3000):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (weight * (p - y)) / len(y) + l2 * w
        w -= 0.5 * gradient
    return tuple(float(v) for v in w)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--packages", nargs="+", default=list(DEFAULT_PACKAGES))
    parser.add_argument("--name", default="code_questions")
    parser.add_argument("--questions-dir", type=Path, default=RESULTS)
    parser.add_argument("--embedder", help="the embedder the indexes were built with")
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--json", type=Path, default=RESULTS / "reranker.json")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    settings = load_settings(embedder=args.embedder)
    by_package: dict[str, list[Sample]] = {}
    folds: dict[str, dict[str, Any]] = {}
    with dedicated_client(settings, console) as client:
        searcher = Searcher(
            client,
            make_embedder(settings),
            vector_index=settings.vector_index,
            fulltext_index=settings.fulltext_index,
        )
        for spec in args.packages:
            name, _ = parse_spec(spec)
            path = args.questions_dir / f"{args.name}-{name}.questions.jsonl"
            by_package[spec] = collect(searcher, spec, read_questions(path))
        for held_out in args.packages:
            train = [s for p, samples in by_package.items() if p != held_out for s in samples]
            weights = fit(train, depth=args.depth)
            reranker = LinearReranker(weights, depth=args.depth)
            test = by_package[held_out]
            by_category = {}
            for category in CATEGORIES:
                subset = [s for s in test if s.question.category is category]
                by_category[category.value] = {
                    "fused": end_to_end(searcher, None, subset),
                    "reranked": end_to_end(searcher, reranker, subset),
                }
            folds[held_out] = {
                "questions": len(test),
                "fused": end_to_end(searcher, None, test),
                "reranked": end_to_end(searcher, reranker, test),
                "by_category": by_category,
                "weights": dict(zip(FEATURES, weights, strict=True)),
            }
            console.print(
                f"held out {held_out}: MRR@10 {folds[held_out]['fused']['mrr@10']:.3f} -> "
                f"{folds[held_out]['reranked']['mrr@10']:.3f}",
                highlight=False,
            )
    result = {
        "embedder": settings.embedder,
        "depth": args.depth,
        "categories": [c.value for c in CATEGORIES],
        "folds": folds,
    }
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
