"""BEIR SciFact (test split, 300 queries) end to end through Neo4j: nDCG@10 and Recall@100.

Ingests the corpus as `:Document` nodes (corpus "scifact"), embeds it with the offline MiniLM
(minutes on two cores the first time; vectors are cached in the graph after that), then runs
every query once per full-text variant (layout x analyzer x title boost), both legs in one
Cypher query at depth 100, and scores full-text only, vector only and RRF fusions computed
from the same legs. Every pass is recorded under benchmarks/results/scifact-*.jsonl.

    .venv/bin/python benchmarks/scifact.py                 # the full sweep (Markdown table)
    .venv/bin/python benchmarks/scifact.py --quick         # default variant only
    .venv/bin/python benchmarks/scifact.py --max-tokens 256   # MiniLM's usual truncation

MiniLM reads 512 tokens here by default: 71 % of SciFact abstracts are longer than 256
wordpieces, and reading them whole measured +0.009 nDCG@10 for the vector leg and +0.007 for
RRF (at twice the embedding time). Vectors are cached per embedding key; the graph holds one
vector per document, so switching --max-tokens re-embeds the corpus.

Uses `Neo4jClient.from_settings(load_settings())`: NEO4J_URI, else the managed local server.
Evaluation data: SciFact is CC BY-NC 2.0 (Wadden et al., EMNLP 2020); see its README.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from graphrag_code import Neo4jClient, load_settings
from graphrag_code.embedding import MiniLMEmbedder
from graphrag_code.eval.beir import BeirDataset, load_beir
from graphrag_code.eval.documents import (
    ANALYZERS,
    DocumentSchema,
    FulltextIndex,
    FulltextLayout,
    ensure_document_schema,
    ingest_documents,
)
from graphrag_code.eval.metrics import aggregate, score_queries, standard_metrics
from graphrag_code.eval.run import (
    Evaluation,
    Fusion,
    QueryResult,
    RunConfig,
    RunLog,
    embed_queries,
    evaluate,
    retrieve,
)
from graphrag_code.eval.search import LegHit, Legs

# shared/ sits beside the checkout (here and in CI).
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact"
RESULTS = Path(__file__).resolve().parent / "results"
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


def progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description:<22}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def ingest(
    client: Neo4jClient, dataset: BeirDataset, embedder: MiniLMEmbedder, console: Console
) -> None:
    key = embedder.name if embedder.max_tokens == 256 else f"{embedder.name}@{embedder.max_tokens}"
    with progress_bar(console) as bar:
        task = bar.add_task(f"embed ({key})", total=None)
        report = ingest_documents(
            client,
            CORPUS,
            dataset.corpus,
            embedder,
            embedding_key=key,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
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
    console: Console,
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
    with progress_bar(console) as bar:
        task = bar.add_task(variant.label, total=len(dataset.queries))
        results = retrieve(
            client,
            dataset.queries,
            config,
            vectors=vectors,
            progress=lambda done, total: bar.update(task, completed=done),
        )
    return log.write_pass(config, results), results


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


class Report:
    """Markdown tables, plus the same numbers as JSON."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.numbers: dict[str, dict[str, float | None]] = {}

    def table(self, title: str) -> None:
        self.lines += [
            "",
            f"### {title}",
            "",
            "| system | nDCG@10 | R@100 | note |",
            "|---|---:|---:|---|",
        ]

    def row(self, name: str, ndcg: float | None, recall: float | None, note: str = "") -> None:
        self.lines.append(f"| {name} | {show(ndcg)} | {show(recall)} | {note} |")
        if note != "published":
            self.numbers[name] = {"ndcg@10": ndcg, "recall@100": recall}

    def scored(self, name: str, evaluation: Evaluation, note: str = "") -> tuple[float, float]:
        means = evaluation.summary.overall.means
        self.row(name, means["ndcg@10"], means["recall@100"], note)
        return means["ndcg@10"], means["recall@100"]


def sweeps(
    report: Report, dataset: BeirDataset, variant: Variant, results: list[QueryResult]
) -> None:
    """Everything computed from one pass's legs without querying again."""
    qrels = dataset.qrels
    report.table(f"RRF weight sweep (k=60), full-text {variant.label} + MiniLM")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--quick", action="store_true", help="only the default variant")
    parser.add_argument("--max-tokens", type=int, default=512, help="MiniLM truncation")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    console = Console(stderr=True)

    dataset = load_beir(args.data, name="scifact")
    embedder = MiniLMEmbedder(max_tokens=args.max_tokens)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    command = " ".join([".venv/bin/python benchmarks/scifact.py", *sys.argv[1:]])
    log = RunLog(
        args.out / f"scifact-{stamp}.jsonl",
        context={
            "dataset": "scifact/test",
            "embedder": embedder.name,
            "max_tokens": args.max_tokens,
            "command": command,
        },
    )
    report = Report()
    report.table("Published anchors (BEIR SciFact test, 300 queries)")
    for name, published_ndcg, published_recall in PUBLISHED:
        report.row(name, published_ndcg, published_recall, "published")
    report.table("Through Neo4j: each full-text variant alone and RRF(k=60) 1:1 with MiniLM")
    passes: dict[Variant, list[QueryResult]] = {}
    hybrid: dict[Variant, float] = {}
    with Neo4jClient.from_settings(load_settings()) as client:
        ensure_document_schema(client, schema_for(DEFAULT))
        ingest(client, dataset, embedder, console)
        started = time.perf_counter()
        vectors = embed_queries(embedder, dataset.queries)
        console.print(f"queries embedded in {time.perf_counter() - started:.1f} s")
        for variant in variants(args.quick):
            run_id, results = run_pass(client, dataset, variant, vectors, log, console)
            passes[variant] = results
            for fusion in (Fusion(1.0, 0.0), Fusion(1.0, 1.0), Fusion(0.0, 1.0)):
                evaluation = evaluate(results, dataset.qrels, fusion)
                log.write_evaluation(run_id, evaluation, with_hits=variant == DEFAULT)
                if fusion.fulltext == 0.0:
                    if variant == DEFAULT:
                        name = f"vector only, MiniLM-L6 int8, {args.max_tokens} tokens"
                        report.scored(name, evaluation)
                elif fusion.vector == 0.0:
                    report.scored(f"full-text {variant.label}", evaluation)
                else:
                    ndcg, _ = report.scored(
                        f"RRF(full-text {variant.label}, MiniLM) 1:1", evaluation
                    )
                    hybrid[variant] = ndcg

    best = max(hybrid, key=lambda v: hybrid[v])
    for variant in dict.fromkeys([DEFAULT, best]):
        sweeps(report, dataset, variant, passes[variant])
    timings = [r.legs.seconds * 1000 for r in passes[DEFAULT]]
    embed_ms = [seconds * 1000 for _, seconds in vectors.values()]

    print(f"## SciFact test (300 queries) through Neo4j: `{command}`")
    print("\n".join(report.lines))
    print(
        f"\nPer query: both legs in one Neo4j round trip, median {statistics.median(timings):.1f} "
        f"ms; query embedding median {statistics.median(embed_ms):.1f} ms."
    )
    print(f"\nRuns recorded in {log.path}")
    # The latest results also go to stable names, to commit next to the code.
    stem = f"scifact-{args.max_tokens}tokens" + ("-quick" if args.quick else "")
    heading = f"## SciFact test (300 queries) through Neo4j: `{command}`"
    (args.out / f"{stem}.md").write_text("\n".join([heading, *report.lines]) + "\n")
    numbers = {"command": command, "run_log": log.path.name, "results": report.numbers}
    (args.out / f"{stem}.json").write_text(json.dumps(numbers, indent=2) + "\n")


if __name__ == "__main__":
    main()
