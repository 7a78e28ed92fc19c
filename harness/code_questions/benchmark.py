"""The whole code-question benchmark: every package indexed (as is and without docstrings),
its questions built and asked under every ablation on the same indexes, scored, recorded in a
run log and written as the summary JSON and Markdown."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphrag_code.api import connect
from graphrag_code.embedding import make_embedder
from graphrag_code.embedding.base import Embedder
from graphrag_code.evaluation.ablation import Ablation
from graphrag_code.evaluation.metrics import Summary
from graphrag_code.evaluation.runlog import RunLog, git_commit
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.reader import GraphReader
from graphrag_code.ingest.state import StateStore
from graphrag_code.progress import ProgressReporter
from graphrag_code.retrieval.search import Searcher, SearchOptions
from graphrag_code.settings import Settings, load_settings

from .ablations import choose_ablations
from .generate import build_questions
from .package import PackageSource, load_oracle, prepare_package
from .questions import DEFAULT_SEED, write_questions
from .report import CodeBenchmarkResult
from .running import Answer, CachedQueries, run_ablation
from .scoring import by_variant, latency, score_answers, vector_leg

if TYPE_CHECKING:
    from ..baselines import HybridRetrieverBaseline

__all__ = ["DEFAULT_PACKAGES", "run_code_benchmark"]

DEFAULT_PACKAGES = ("requests==2.32.3", "flask==3.0.3", "click==8.1.7")
"""Pinned packages with oracle outputs (`benchmarks/oracles`); httpx is pinned there too."""


@dataclass
class _Bench:
    """What every package's run shares."""

    client: Neo4jClient
    settings: Settings
    embedder: CachedQueries
    searcher: Searcher
    baseline: HybridRetrieverBaseline | None
    store: StateStore
    work_dir: Path
    output_dir: Path
    log: RunLog
    run_id: str
    name: str
    k: int
    progress: ProgressReporter | None


def _ask_package(
    bench: _Bench, source: PackageSource, chosen: Sequence[Ablation], *, sample: int, seed: int
) -> dict[str, list[Answer]]:
    """Build one package's questions and answer them under every ablation."""
    questions = build_questions(source, sample=sample, seed=seed)
    write_questions(bench.output_dir / f"{bench.name}-{source.name}.questions.jsonl", questions)
    files = load_oracle(source.imports_oracle)["module_files"]
    modules = {path: module for module, path in files.items()}
    if bench.progress is not None:
        bench.progress.stage(f"questions {source.name}", len(questions) * len(chosen))
    answers: dict[str, list[Answer]] = {}
    for ablation in chosen:
        answers[ablation.name] = run_ablation(
            bench.searcher,
            questions,
            ablation,
            k=bench.k,
            modules=modules,
            baseline=bench.baseline,
            progress=bench.progress,
        )
        _log_answers(bench, source.spec, answers[ablation.name])
        _log_evaluation(bench, source.spec, ablation.name, score_answers(answers[ablation.name]))
    return answers


def _log_answers(bench: _Bench, package: str, answers: Sequence[Answer]) -> None:
    """One `answer` record per question."""
    bench.log.write(bench.run_id, ({**a.to_json(), "package": package} for a in answers))


def _log_evaluation(
    bench: _Bench, package: str, ablation: str, scores: Mapping[str, Summary]
) -> None:
    """One `evaluation` record per package and ablation: the means per category."""
    record = {
        "type": "evaluation",
        "package": package,
        "ablation": ablation,
        "scores": {
            c: {"n": s.queries, **{m: round(v, 6) for m, v in s.means.items()}}
            for c, s in scores.items()
        },
    }
    bench.log.write(bench.run_id, [record])


def _summarise(
    runs: Mapping[str, Mapping[str, list[Answer]]],
    chosen: Sequence[Ablation],
    *,
    config: Mapping[str, Any],
    database: Sequence[Mapping[str, Any]],
    bench: _Bench,
) -> CodeBenchmarkResult:
    pooled = {a.name: [x for answers in runs.values() for x in answers[a.name]] for a in chosen}
    candidates = SearchOptions().candidates_per_leg
    return CodeBenchmarkResult(
        packages=tuple(runs),
        ablations=tuple(a.name for a in chosen),
        scores={
            p: {a: score_answers(x) for a, x in answers.items()} for p, answers in runs.items()
        },
        pooled={name: score_answers(answers) for name, answers in pooled.items()},
        variants={name: by_variant(answers) for name, answers in pooled.items()},
        latency_ms={name: latency(answers) for name, answers in pooled.items()},
        baseline_failures={
            p: sum(1 for x in answers[a.name] if x.error)
            for p, answers in runs.items()
            for a in chosen
            if a.baseline
        },
        vector_leg={
            p: leg
            for p, answers in runs.items()
            if (leg := vector_leg(answers.get("vector", []), candidates))
        },
        database=database,
        config={**config, "candidates": candidates},
        run_log=bench.log.path,
        summary_json=bench.output_dir / f"{bench.name}.json",
        summary_md=bench.output_dir / f"{bench.name}.md",
    )


def run_code_benchmark(
    packages: Sequence[str],
    *,
    output_dir: Path,
    sources: Callable[[str], PackageSource],
    ablations: Sequence[str] | None = None,
    sample: int = 100,
    seed: int = DEFAULT_SEED,
    k: int = 10,
    client: Neo4jClient | None = None,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    work_dir: Path | None = None,
    progress: ProgressReporter | None = None,
    summary_name: str = "code_questions",
) -> CodeBenchmarkResult:
    """Build the question sets of `packages` (`NAME==VERSION`), index each package (as is and
    without docstrings), run every ablation on the same indexes, and write to `output_dir`:
    `<summary_name>.json`, `<summary_name>.md`, a JSONL run log and the question sets.

    `sources` turns a spec into its source and oracle outputs
    (`benchmarks/retrieval/code_questions.py` fetches the pinned sdists and runs the oracles).
    Without `client`/`settings`/`embedder`: `NEO4J_URI` or the managed local server, and the
    embedder the settings name (MiniLM by default).
    """
    settings = settings or load_settings()
    chosen = choose_ablations(ablations)
    cached = CachedQueries(embedder or make_embedder(settings))
    own_client = client is None
    client = client or connect(settings)
    config: dict[str, Any] = {
        "packages": list(packages),
        "ablations": [a.name for a in chosen],
        "sample": sample,
        "seed": seed,
        "k": k,
        "embedder": cached.name,
        "vector_index": settings.vector_index,
        "fulltext_index": settings.fulltext_index,
        "git": git_commit(),
    }
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    log = RunLog(output_dir / f"{summary_name}-{stamp}.jsonl")
    bench = _Bench(
        client=client,
        settings=settings,
        embedder=cached,
        searcher=Searcher(
            client,
            cached,
            vector_index=settings.vector_index,
            fulltext_index=settings.fulltext_index,
        ),
        baseline=_baseline(client, cached, settings) if any(a.baseline for a in chosen) else None,
        store=StateStore(settings.cache_dir / "graphs"),
        work_dir=work_dir or settings.cache_dir / "code-questions",
        output_dir=output_dir,
        log=log,
        run_id=log.start(config),
        name=summary_name,
        k=k,
        progress=progress,
    )
    try:
        runs: dict[str, dict[str, list[Answer]]] = {}
        indexed: dict[str, Any] = {}
        found = {spec: sources(spec) for spec in packages}
        # every package is indexed before any question is asked: each leg's candidates depend
        # on everything stored, so every package must be asked about the same database
        for spec, source in found.items():
            indexed[spec] = prepare_package(
                source,
                bench.work_dir,
                client=client,
                settings=settings,
                embedder=cached,
                store=bench.store,
                progress=progress,
            )
        for spec, source in found.items():
            runs[spec] = _ask_package(bench, source, chosen, sample=sample, seed=seed)
        database = [
            {"repo": repo, "nodes": size.nodes, "vectors": size.vectors}
            for repo, size in sorted(GraphReader(client).repository_sizes().items())
        ]
        result = _summarise(
            runs, chosen, config={**config, "indexed": indexed}, database=database, bench=bench
        )
    finally:
        if bench.baseline is not None:
            bench.baseline.close()
        if own_client:
            client.close()
    assert result.summary_json is not None
    assert result.summary_md is not None
    result.summary_json.write_text(json.dumps(result.to_json(), indent=2) + "\n")
    result.summary_md.write_text(result.to_markdown())
    return result


def _baseline(
    client: Neo4jClient, embedder: Embedder, settings: Settings
) -> HybridRetrieverBaseline:
    from ..baselines import HybridRetrieverBaseline  # neo4j-graphrag: the `bench` extra

    return HybridRetrieverBaseline(
        client.endpoint,
        embedder,
        vector_index=settings.vector_index,
        fulltext_index=settings.fulltext_index,
        database=client.database,
    )
