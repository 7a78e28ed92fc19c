"""BEIR SciFact (test split, 300 queries) end to end through Neo4j: nDCG@10 and Recall@100.

The runner behind `python -m benchmarks.retrieval.scifact`. Ingests the corpus as `:Document` nodes
(corpus "scifact"), embeds it with the offline MiniLM (minutes on two cores the first time;
vectors are cached in the graph after that), then runs every query once per full-text variant
(layout x analyzer x title boost), both legs in one Cypher query at depth 100, and scores
full-text only, vector only and RRF fusions computed from the same legs. Every pass is
recorded in a JSONL run log.

MiniLM reads 512 tokens by default: 71 % of SciFact abstracts are longer than 256 wordpieces,
and reading them whole measured +0.009 nDCG@10 for the vector leg and +0.007 for RRF (at
twice the embedding time). The graph holds one vector per document, so switching
`max_tokens` re-embeds the corpus.

Evaluation data: SciFact is CC BY-NC 2.0 (Wadden et al., EMNLP 2020); see its README.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console

from graphrag_code.api import connect
from graphrag_code.cli.progress import RichProgress
from graphrag_code.embedding import JarEmbedder, MiniLMEmbedder
from graphrag_code.evaluation.metrics import aggregate, score_queries, standard_metrics
from graphrag_code.evaluation.runlog import RunLog
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.progress import ProgressReporter
from graphrag_code.settings import load_settings

from .beir import BeirDataset, load_beir
from .documents import (
    ANALYZERS,
    DocumentSchema,
    FulltextIndex,
    FulltextLayout,
    ensure_document_schema,
    ingest_documents,
)
from .passes import (
    Evaluation,
    Fusion,
    QueryResult,
    RunConfig,
    embed_queries,
    evaluate,
    retrieve,
    write_evaluation,
    write_pass,
)
from .search import LegHit, Legs

__all__ = [
    "DEFAULT",
    "PUBLISHED",
    "ScifactReport",
    "ScifactRun",
    "Variant",
    "convex",
    "cut",
    "embedding_key",
    "run_scifact",
    "scifact_embedder",
    "variants",
]

CORPUS = "scifact"
FLAT_INDEX = "document_fulltext"
FIELDS_INDEX = "document_fulltext_fields"
VECTOR_INDEX = "document_embedding"

PUBLISHED = [
    ("BM25 flat (Pyserini, k1=0.9 b=0.4)", 0.6789, 0.9253),
    ("BM25 multifield (Pyserini)", 0.6647, 0.9076),
    ("all-MiniLM-L6-v2 (anchor from the brief, source not re-checked)", 0.645, None),
    ("bge-small-en-v1.5 (MTEB)", 0.7127, 0.945),
    ("bge-base-en-v1.5 (Pyserini)", 0.7408, 0.9667),
    ("RRF(BM25 flat, bge-base-en-v1.5) (quackir)", 0.7440, None),
]
WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)
"""Full-text weights swept against a vector weight of 1 (0 = vector only)."""
DEPTHS = (10, 20, 50, 100)
LABELS = {"minilm": "MiniLM-L6", "bge-small": "bge-small-en-v1.5", "e5-small": "e5-small-v2"}
"""How tables name each embedder (GRAPHRAG_CODE_EMBEDDER values)."""
RRF_KS = (10.0, 20.0, 30.0, 60.0, 100.0)
ALPHAS = (0.3, 0.4, 0.5, 0.6)


@dataclass(frozen=True)
class Variant:
    """One way to build and query the full-text index."""

    layout: FulltextLayout
    analyzer: str
    boosts: tuple[tuple[str, float], ...] = ()

    @property
    def label(self) -> str:
        boosts = ",".join(f"{field}^{boost:g}" for field, boost in self.boosts)
        return f"{self.layout.value}/{self.analyzer}" + (f" [{boosts}]" if boosts else "")


DEFAULT = Variant(FulltextLayout.FLAT, "english")


def variants(quick: bool) -> list[Variant]:
    if quick:
        return [DEFAULT]
    found = [Variant(FulltextLayout.FLAT, analyzer) for analyzer in ANALYZERS]
    found += [Variant(FulltextLayout.MULTIFIELD, analyzer) for analyzer in ANALYZERS]
    for title in (0.25, 0.5, 2.0):
        found.append(
            Variant(FulltextLayout.MULTIFIELD, "english", (("title", title), ("text", 1.0)))
        )
    return found


def scifact_embedder(name: str, max_tokens: int) -> MiniLMEmbedder | JarEmbedder:
    """The embedder `name` (a GRAPHRAG_CODE_EMBEDDER value) reading `max_tokens` tokens."""
    if name == "minilm":
        return MiniLMEmbedder(max_tokens=max_tokens)
    return JarEmbedder(name, cache_dir=load_settings().cache_dir, max_tokens=max_tokens)


def embedding_key(embedder: MiniLMEmbedder | JarEmbedder) -> str:
    """The key stored next to each document vector: the model, and the truncation when it is
    not the usual 256 tokens (another truncation gives other vectors)."""
    if embedder.max_tokens == 256:
        return embedder.name
    return f"{embedder.name}@{embedder.max_tokens}"


def ingest(
    client: Neo4jClient,
    dataset: BeirDataset,
    embedder: MiniLMEmbedder | JarEmbedder,
    console: Console,
    progress: ProgressReporter,
) -> None:
    key = embedding_key(embedder)
    report = ingest_documents(
        client, CORPUS, dataset.corpus, embedder, embedding_key=key, progress=progress
    )
    rate = f", {report.texts_per_second:.1f} texts/s" if report.embedded else ""
    console.print(
        f"ingest: {report.documents} documents, {report.written} written, "
        f"{report.embedded} embedded ({report.embed_seconds:.0f} s{rate}), "
        f"{report.reused} vectors reused, {report.seconds:.0f} s in all",
        highlight=False,
    )


def schema_for(variant: Variant, *, quantization: bool = True) -> DocumentSchema:
    name = FLAT_INDEX if variant.layout is FulltextLayout.FLAT else FIELDS_INDEX
    return DocumentSchema(
        dimensions=384,
        vector_index=VECTOR_INDEX,
        fulltext=(FulltextIndex(name, variant.layout, variant.analyzer),),
        quantization=quantization,
    )


def run_pass(
    client: Neo4jClient,
    dataset: BeirDataset,
    variant: Variant,
    vectors: dict[str, tuple[list[float], float]],
    log: RunLog,
    progress: ProgressReporter,
    *,
    depth: int = 100,
) -> tuple[str, list[QueryResult]]:
    schema = schema_for(variant)
    ensure_document_schema(client, schema)
    config = RunConfig(
        corpus=CORPUS,
        fulltext_index=schema.fulltext[0].name,
        vector_index=VECTOR_INDEX,
        field_boosts=variant.boosts,
        depth=depth,
        label=variant.label,
    )
    results = retrieve(client, dataset.queries, config, vectors=vectors, progress=progress)
    return write_pass(log, config, results), results


def cut(results: Sequence[QueryResult], depth: int) -> list[QueryResult]:
    """The same pass with each leg cut to its first `depth` hits."""
    return [
        replace(r, legs=Legs(r.legs.fulltext[:depth], r.legs.vector[:depth], r.legs.seconds))
        for r in results
    ]


def convex(results: Sequence[QueryResult], alpha: float) -> dict[str, list[str]]:
    """NOT RRF, for comparison only: alpha * minmax(text score) + (1 - alpha) * minmax(cosine)
    over each leg's top 100 (Bruch et al., TOIS 2023, "An Analysis of Fusion Functions")."""

    def normalised(hits: Sequence[LegHit]) -> dict[str, float]:
        if not hits:
            return {}
        low, high = min(h.score for h in hits), max(h.score for h in hits)
        return {h.id: (h.score - low) / ((high - low) or 1.0) for h in hits}

    run: dict[str, list[str]] = {}
    for result in results:
        text, vector = normalised(result.legs.fulltext), normalised(result.legs.vector)
        ids = sorted(set(text) | set(vector))
        score = {d: alpha * text.get(d, 0.0) + (1 - alpha) * vector.get(d, 0.0) for d in ids}
        run[result.query_id] = sorted(ids, key=lambda d: -score[d])[:100]
    return run


def show(value: float | None) -> str:
    return "–" if value is None else f"{value:.4f}"


Row = tuple[str, float | None, float | None, str]
"""(system, nDCG@10, Recall@100, note)."""


@dataclass
class ScifactReport:
    """Markdown tables, the same rows by section (for other renderings), and the measured
    numbers as JSON (published anchors are shown, not recorded)."""

    lines: list[str] = field(default_factory=list)
    sections: list[tuple[str, list[Row]]] = field(default_factory=list)
    numbers: dict[str, dict[str, float | None]] = field(default_factory=dict)
    model: str = "MiniLM-L6"
    """The embedder as the tables name it."""

    def table(self, title: str) -> None:
        self.lines += [
            "",
            f"### {title}",
            "",
            "| system | nDCG@10 | R@100 | note |",
            "|---|---:|---:|---|",
        ]
        self.sections.append((title, []))

    def row(self, name: str, ndcg: float | None, recall: float | None, note: str = "") -> None:
        self.lines.append(f"| {name} | {show(ndcg)} | {show(recall)} | {note} |")
        self.sections[-1][1].append((name, ndcg, recall, note))
        if note != "published":
            self.numbers[name] = {"ndcg@10": ndcg, "recall@100": recall}

    def scored(self, name: str, evaluation: Evaluation, note: str = "") -> tuple[float, float]:
        means = evaluation.summary.overall.means
        self.row(name, means["ndcg@10"], means["recall@100"], note)
        return means["ndcg@10"], means["recall@100"]


def sweeps(
    report: ScifactReport, dataset: BeirDataset, variant: Variant, results: list[QueryResult]
) -> None:
    """Everything computed from one pass's legs without querying again."""
    qrels = dataset.qrels
    report.table(f"RRF weight sweep (k=60), full-text {variant.label} + {report.model}")
    for weight in WEIGHTS[1:]:
        report.scored(f"RRF text={weight:g} vector=1", evaluate(results, qrels, Fusion(weight)))
    report.table(f"RRF k (the constant), {variant.label}")
    for k in RRF_KS:
        for weight in (1.0, 1.25):
            fusion = Fusion(weight, 1.0, k=k)
            report.scored(f"RRF k={k:g} text={weight:g} vector=1", evaluate(results, qrels, fusion))
    report.table(f"Candidate depth per leg (RRF k=60 1:1), {variant.label}")
    for depth in DEPTHS:
        report.scored(f"legs cut to {depth}", evaluate(cut(results, depth), qrels, Fusion()))
    report.table(f"For comparison, NOT RRF: min-max score fusion, {variant.label}")
    for alpha in ALPHAS:
        per_query = score_queries(convex(results, alpha), qrels, standard_metrics())
        means = aggregate(per_query).overall.means
        report.row(
            f"{alpha:g} x text + {1 - alpha:g} x vector", means["ndcg@10"], means["recall@100"]
        )


@dataclass(frozen=True)
class ScifactRun:
    """What one run measured, and how to write it down."""

    command: str
    max_tokens: int
    quick: bool
    report: ScifactReport
    embedder: str
    log_path: Path
    query_median_ms: float
    embed_median_ms: float

    @property
    def heading(self) -> str:
        return f"## SciFact test (300 queries) through Neo4j: `{self.command}`"

    @property
    def stem(self) -> str:
        """Stable file name of the latest results, to commit next to the code."""
        model = "" if self.embedder == "minilm" else f"{self.embedder}-"
        return f"scifact-{model}{self.max_tokens}tokens" + ("-quick" if self.quick else "")

    def text(self) -> str:
        """The full Markdown report, with timings and where the run log is."""
        return "\n".join(
            [
                self.heading,
                "\n".join(self.report.lines),
                f"\nPer query: both legs in one Neo4j round trip, median "
                f"{self.query_median_ms:.1f} ms; query embedding median "
                f"{self.embed_median_ms:.1f} ms.",
                f"\nRuns recorded in {self.log_path}",
            ]
        )

    def as_dict(self) -> dict[str, object]:
        return {"command": self.command, "run_log": self.log_path.name, "results": self.numbers}

    @property
    def numbers(self) -> dict[str, dict[str, float | None]]:
        return self.report.numbers

    def write(self, out: Path) -> tuple[Path, Path]:
        """`<stem>.md` (the tables) and `<stem>.json` (the numbers) in `out`."""
        out.mkdir(parents=True, exist_ok=True)
        markdown, numbers = out / f"{self.stem}.md", out / f"{self.stem}.json"
        markdown.write_text("\n".join([self.heading, *self.report.lines]) + "\n")
        numbers.write_text(json.dumps(self.as_dict(), indent=2) + "\n")
        return markdown, numbers


def run_scifact(
    data: Path,
    *,
    out: Path,
    command: str,
    max_tokens: int = 512,
    quick: bool = False,
    console: Console | None = None,
    embedder_name: str = "minilm",
) -> ScifactRun:
    """The whole benchmark: ingest, one pass per full-text variant (only the default one when
    `quick`), the three fusions of each, then sweeps over the default and the best variant.

    Connects with `connect(load_settings())` (NEO4J_URI, else the managed
    local server). Progress bars and the ingest summary go to `console` (silent without one).
    """
    console = console or Console(stderr=True, quiet=True)
    dataset = load_beir(data, name="scifact")
    settings = load_settings()
    embedder = scifact_embedder(embedder_name, max_tokens)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    log = RunLog(
        out / f"scifact-{stamp}.jsonl",
        context={
            "dataset": "scifact/test",
            "embedder": embedder.name,
            "max_tokens": max_tokens,
            "command": command,
        },
    )
    report = ScifactReport(model=LABELS.get(embedder_name, embedder_name))
    report.table("Published anchors (BEIR SciFact test, 300 queries)")
    for name, published_ndcg, published_recall in PUBLISHED:
        report.row(name, published_ndcg, published_recall, "published")
    report.table(
        f"Through Neo4j: each full-text variant alone and RRF(k=60) 1:1 with {report.model}"
    )
    passes: dict[Variant, list[QueryResult]] = {}
    hybrid: dict[Variant, float] = {}
    with (
        connect(settings) as client,
        RichProgress(console, enabled=not console.quiet) as progress,
    ):
        ensure_document_schema(client, schema_for(DEFAULT))
        ingest(client, dataset, embedder, console, progress)
        started = time.perf_counter()
        vectors = embed_queries(embedder, dataset.queries)
        console.print(f"queries embedded in {time.perf_counter() - started:.1f} s")
        for variant in variants(quick):
            run_id, results = run_pass(client, dataset, variant, vectors, log, progress)
            passes[variant] = results
            for fusion in (Fusion(1.0, 0.0), Fusion(1.0, 1.0), Fusion(0.0, 1.0)):
                evaluation = evaluate(results, dataset.qrels, fusion)
                write_evaluation(log, run_id, evaluation, with_hits=variant == DEFAULT)
                if fusion.fulltext == 0.0:
                    if variant == DEFAULT:
                        name = f"vector only, {report.model} int8, {max_tokens} tokens"
                        report.scored(name, evaluation)
                elif fusion.vector == 0.0:
                    report.scored(f"full-text {variant.label}", evaluation)
                else:
                    ndcg, _ = report.scored(
                        f"RRF(full-text {variant.label}, {report.model}) 1:1", evaluation
                    )
                    hybrid[variant] = ndcg

    best = max(hybrid, key=lambda v: hybrid[v])
    for variant in dict.fromkeys([DEFAULT, best]):
        sweeps(report, dataset, variant, passes[variant])
    timings = [r.legs.seconds * 1000 for r in passes[DEFAULT]]
    embed_ms = [seconds * 1000 for _, seconds in vectors.values()]
    return ScifactRun(
        command=command,
        max_tokens=max_tokens,
        quick=quick,
        report=report,
        embedder=embedder_name,
        log_path=log.path,
        query_median_ms=statistics.median(timings),
        embed_median_ms=statistics.median(embed_ms),
    )
