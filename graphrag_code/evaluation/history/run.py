"""Asking a repository's history questions: each searched tree is indexed, every question
is asked under every ablation and scored, and each ablation can be recorded in a run log."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...codegraph import CodeGraph
from ...errors import ConfigurationError
from ...ingest.pipeline import valid_repo_name
from ...location import Location
from ...progress import SILENT, ProgressReporter
from ...retrieval.search import LEGS, Hit
from ...retrieval.units import Unit
from ..ablation import Ablation, select
from ..metrics import aggregate
from ..runlog import RunLog
from .bm25 import Bm25Index
from .git import export_tree
from .questions import HistoryQuestion, QuestionSet, SkippedCommit, SkipReason
from .scoring import KS, AblationResult, HistoryResult, QuestionOutcome, file_ranking, score_files

__all__ = [
    "ABLATIONS", "Observer", "log_ablation", "run_history_benchmark", "select_ablations",
]  # fmt: skip

Observer = Callable[[str, HistoryQuestion, tuple[str, ...]], None]
"""Called with the graph's repository name, a question and the indexed paths it changed."""

BM25_FILES = "bm25-files"
"""The baseline ablation: BM25 over whole files, run by the benchmark itself (`bm25.py`)."""

ABLATIONS: tuple[Ablation, ...] = (
    Ablation(BM25_FILES, (), baseline=True, unit=Unit.FILE),
    Ablation("full-text", ("text",)),
    Ablation("vector", ("vector",)),
    Ablation("vector+text", ("vector", "text")),
    Ablation("hybrid", LEGS),
    Ablation("hybrid+prior", LEGS, centrality_prior=1.0),
    Ablation("files", LEGS, unit=Unit.FILE),
    Ablation("files: vector+text", ("vector", "text"), unit=Unit.FILE),
)
"""BM25 over whole files; each leg alone, RRF of the two, the graph leg added, PageRank as a
tie-breaking prior (symbols, scored at the file of each hit); then files ranked by all their
symbols' evidence (`search(unit="file")`), with and without the graph leg."""


def select_ablations(names: Sequence[str]) -> tuple[Ablation, ...]:
    """The named ablations of `ABLATIONS`, in the order given."""
    return select(ABLATIONS, names)


def log_ablation(log: RunLog, result: AblationResult, *, config: Mapping[str, Any]) -> str:
    """Record one ablation of a run as a run of its own: the `run` record (`config` plus the
    ablation), a `query` record per question with its file-level hits, and an `evaluation`
    record with the means. Returns the run's id."""
    ablation = result.ablation
    run_id = log.start(
        {
            **config,
            "ablation": ablation.name,
            "legs": list(ablation.legs),
            "centrality_prior": ablation.centrality_prior,
            "unit": ablation.unit.value,
        }
    )
    records: list[Mapping[str, Any]] = []
    for outcome in result.outcomes:
        question = outcome.question
        records.append(
            {
                "type": "query",
                "query_id": question.id,
                "text": question.text,
                "commit": question.commit,
                "revision": question.revision,
                "category": outcome.category,
                "relevant": list(outcome.relevant),
                "hits": [
                    {"id": hit.id, "file": file, "ranks": dict(hit.ranks)}
                    for hit, file in zip(outcome.hits, outcome.files, strict=True)
                ],
                "timings_ms": {"search": round(outcome.seconds * 1000, 3)},
            }
        )
    summary = result.summary
    records.append(
        {
            "type": "evaluation",
            "label": ablation.name,
            "queries": summary.overall.queries,
            "means": {k: round(v, 6) for k, v in summary.overall.means.items()},
            "by_category": {
                category: {k: round(v, 6) for k, v in s.means.items()}
                for category, s in summary.by_category.items()
            },
            "per_query": {o.question.id: dict(o.scores) for o in result.outcomes},
        }
    )
    log.write(run_id, records)
    return run_id


def _module_ids(graph: CodeGraph, repo: str) -> dict[str, str]:
    return graph.reader.module_ids(repo)


def _ask(
    graph: CodeGraph,
    repo: str,
    question: HistoryQuestion,
    relevant: tuple[str, ...],
    modules: Mapping[str, str],
    ablation: Ablation,
    ks: Sequence[int],
    bm25: Bm25Index | None,
) -> QuestionOutcome:
    started = time.perf_counter()
    if ablation.baseline:
        if bm25 is None:
            raise ConfigurationError(f"no baseline retriever for ablation {ablation.name!r}")
        hits = _bm25_hits(bm25, question.text, repo, modules, max(ks))
    else:
        hits = graph.search(
            question.text,
            repo=repo,
            options=ablation.options(question.text, k=max(ks)),
            unit=ablation.unit,
            files=ablation.files,
        ).hits
    seconds = time.perf_counter() - started
    result_hits = tuple(hits)
    files = file_ranking(result_hits, modules)
    scores = score_files(files, relevant, ks)
    return QuestionOutcome(question, relevant, result_hits, tuple(files), scores, seconds)


def _bm25_hits(
    index: Bm25Index, text: str, repo: str, modules: Mapping[str, str], k: int
) -> list[Hit]:
    return [
        Hit(id=modules[path], kind="File", qualified_name=path, location=Location(path),
            signature=None, repo=repo, score=0.0)
        for path in index.search(text, k)
    ]  # fmt: skip


def _bm25_index(tree: Path, modules: Mapping[str, str]) -> Bm25Index:
    """Every indexed file of the searched tree, read whole, as one BM25 document."""
    return Bm25Index.build(
        (path, (tree / path).read_text(encoding="utf-8", errors="replace"))
        for path in modules
        if (tree / path).is_file()
    )


def _by_revision(questions: Sequence[HistoryQuestion]) -> dict[str, list[HistoryQuestion]]:
    """Questions grouped by the tree they are asked of, oldest first, so each incremental
    index differs from the previous one by about one commit."""
    grouped: dict[str, list[HistoryQuestion]] = {}
    for question in reversed(questions):
        grouped.setdefault(question.revision, []).append(question)
    return grouped


def run_history_benchmark(
    questions: QuestionSet,
    graph: CodeGraph,
    *,
    repo: str | None = None,
    ablations: Sequence[Ablation] = ABLATIONS,
    ks: Sequence[int] = KS,
    log: RunLog | None = None,
    progress: ProgressReporter | None = None,
    observe: Observer | None = None,
) -> HistoryResult:
    """Index each searched tree as repository `repo` (default `<folder>-history`, so a normal
    index of the same folder is left alone), ask every question under every ablation, score.

    Trees are exported with `git archive` into a temporary folder and indexed incrementally
    one after the other; the last one stays in the graph for inspection. With `log`, each
    ablation is recorded as a run (`log_ablation`). `observe` is called once per question
    asked, while the graph holds its tree (benchmarks record the raw evidence with it).
    """
    if not ablations or not ks or min(ks) < 1:
        raise ConfigurationError("need at least one ablation and cut-offs k >= 1")
    name = valid_repo_name(repo or f"{questions.root.name}-history")
    progress = progress or SILENT
    grouped = _by_revision(questions.questions)
    outcomes: dict[str, list[QuestionOutcome]] = {a.name: [] for a in ablations}
    unindexed: list[SkippedCommit] = []
    seconds = {"index": 0.0, "search": 0.0}
    # One tree: the index stages are worth showing; many: one bar over the questions.
    index_progress = progress if len(grouped) == 1 else None
    with tempfile.TemporaryDirectory(prefix="graphrag-code-history-") as scratch:
        tree = Path(scratch) / questions.root.name
        if index_progress is None:
            progress.stage("index + search", len(questions.questions))
        for revision, asked in grouped.items():
            started = time.perf_counter()
            export_tree(questions.root, revision, tree)
            graph.index(tree, name, progress=index_progress)
            modules = _module_ids(graph, name)
            bm25 = _bm25_index(tree, modules) if any(a.baseline for a in ablations) else None
            seconds["index"] += time.perf_counter() - started
            if index_progress is not None:
                progress.stage("search", len(asked))
            started = time.perf_counter()
            for question in asked:
                relevant = tuple(sorted({modules[p] for p in question.paths if p in modules}))
                if relevant:
                    for ablation in ablations:
                        outcome = _ask(graph, name, question, relevant, modules, ablation, ks, bm25)
                        outcomes[ablation.name].append(outcome)
                    if observe is not None:
                        observe(name, question, tuple(p for p in question.paths if p in modules))
                else:
                    reason = SkipReason.NOT_INDEXED
                    unindexed.append(SkippedCommit(question.commit, question.text, reason))
                progress.advance()
            seconds["search"] += time.perf_counter() - started
    results = []
    for ablation in ablations:
        done = outcomes[ablation.name]
        per_query = {o.question.id: o.scores for o in done}
        summary = aggregate(per_query, {o.question.id: o.category for o in done})
        results.append(AblationResult(ablation, tuple(done), summary))
    result = HistoryResult(name, questions, tuple(results), tuple(unindexed), tuple(ks), seconds)
    if log is not None:
        config = {key: value for key, value in result.as_dict().items() if key in _CONFIG_KEYS}
        for ablation_result in results:
            log_ablation(log, ablation_result, config={**config, "ks": list(ks)})
    return result


_CONFIG_KEYS = frozenset({"benchmark", "repo", "source", "head", "revision", "max_files"})
