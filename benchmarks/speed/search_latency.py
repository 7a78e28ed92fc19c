"""Search latency on Django 5.1.4 (~2,800 files, ~40k symbols, MiniLM vectors): our hybrid
query against neo4j-graphrag's HybridRetriever on the same data and the same indexes.

    .venv/bin/python -m benchmarks.speed.search_latency [--rounds 3] [--no-index] [--profile]

Indexes the sdist first (incremental; the first embedding pass takes 20-60 min on two cores
and is resumable), runs every question once to warm up (Neo4j plans the hybrid query once per
combination of parameter types: seconds each), then measures each of ~50 mixed-intent
questions `--rounds` times, interleaving the systems:

    query      our Cypher query alone (`SearchResult.timings_ms["query"]`)
    search     `search()` end to end with the query vector precomputed (analysis, parameters,
               the query, fusion): what a caller waits for beyond the embedding
    embed      the MiniLM query embedding alone
    ... + embedding   what a caller waits for in all: `search()` plus the embedding when the
               question uses the vector leg (relationship questions weigh it 0 and skip it);
               the baseline always embeds
    baseline   neo4j-graphrag `HybridRetriever.get_search_results` with the same precomputed
               vector, at top_k 10 and 50 (its hybrid query takes no repository filter, so it
               searches every repository stored; failed Lucene parses are counted, not timed)

`--profile` adds per-leg timings (each leg alone) and the operators with the most database
hits in `PROFILE` of the slowest questions. Writes benchmarks/results/search_latency.{json,md}
with the load average before and after (two shared cores: check `uptime` first).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from benchmarks.common.paths import RESULTS_DIR
from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.api import connect, index_repository
from graphrag_code.embedding import MiniLMEmbedder, WrappedEmbedder
from graphrag_code.evaluation.runlog import git_commit
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.reader import GraphReader, hybrid_search_query
from graphrag_code.graph.records import RepositorySize
from graphrag_code.retrieval.question import analyse
from graphrag_code.retrieval.search import Searcher, SearchOptions
from graphrag_code.settings import Settings, load_settings
from harness.baselines import HybridRetrieverBaseline

RESULTS = RESULTS_DIR
REPO = "bench-django-5.1.4"

QUESTIONS: tuple[str, ...] = (
    # concept
    "where are database transactions committed?",
    "how are passwords hashed?",
    "where is the CSRF token checked?",
    "how does the template engine load templates from app directories?",
    "where are migrations applied to the database?",
    "how is a session cookie signed?",
    "where are static files collected?",
    "how are URL patterns resolved to views?",
    "where is the request body parsed into POST data?",
    "how does the cache framework expire keys?",
    "where are email messages sent over SMTP?",
    "how are model field values validated?",
    "where does the admin build its changelist query?",
    "how are translations activated for a request?",
    "where are signals dispatched to receivers?",
    # definition
    "Where is `QuerySet.filter` defined?",
    "Where is `Model.save` defined?",
    "Where is `HttpResponseRedirect` defined?",
    "Where is the get_user_model function defined?",
    "where is slugify defined?",
    "Where is `BaseCommand.execute` defined?",
    "Where is csrf_exempt defined?",
    "find the class StreamingHttpResponse",
    # callers
    "What calls get_connection?",
    "What calls `QuerySet._clone`?",
    "What calls `slugify`?",
    "Who calls get_user_model?",
    "What calls `Signal.send`?",
    "Who uses mark_safe?",
    "What calls make_password?",
    "What calls `import_string`?",
    "What calls `transaction.atomic`?",
    "where is `BaseDatabaseWrapper.cursor` called?",
    # callees
    "What does `Model.save` call?",
    "What does `QuerySet.delete` call?",
    "What does call_command call?",
    # impact
    "What breaks if I change django/utils/text.py?",
    "What breaks if I change django/utils/functional.py?",
    "What breaks if I change `django.db.models.query`?",
    "What is affected if I modify django/core/signing.py?",
    "What breaks if I change `HttpRequest`?",
    "What breaks if I change django/utils/timezone.py?",
    # importers
    "Who imports django.utils.encoding?",
    "Which modules import `django.core.cache`?",
    "What imports django/utils/html.py?",
    # dependencies
    "What does django/db/models/base.py import?",
    "What does `django.contrib.auth.models` depend on?",
    # trace
    "Trace `LoginView.form_valid` to the database",
    "How does `Model.save` reach the database?",
    "trace call_command to the management command's handle",
)


def percentiles(values: Sequence[float]) -> dict[str, float]:
    """p50/p95 (inclusive method) and the count, in ms rounded to 0.01."""
    if not values:
        return {"n": 0, "p50": 0.0, "p95": 0.0}
    if len(values) == 1:
        return {"n": 1, "p50": round(values[0], 2), "p95": round(values[0], 2)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"n": len(values), "p50": round(cuts[49], 2), "p95": round(cuts[94], 2)}


class FixedVectors(WrappedEmbedder):
    """An embedder that hands out precomputed query vectors, so `search()` wall time excludes
    the embedding without touching the searcher."""

    def __init__(self, inner: MiniLMEmbedder, vectors: Mapping[str, list[float]]) -> None:
        super().__init__(inner)
        self.vectors = vectors

    def embed_query(self, text: str) -> list[float]:
        return self.vectors[text]


@dataclass
class Samples:
    query: list[float]
    search: list[float]
    embed: list[float]
    search_with_embed: list[float]  # search() plus the embedding when it needs one
    baseline: dict[int, list[float]]
    baseline_with_embed: dict[int, list[float]]
    baseline_failed: dict[int, set[str]]
    per_intent: dict[str, dict[str, list[float]]]  # intent -> query / search / baseline
    query_by_question: list[tuple[str, float]]


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def ensure_indexed(
    client: Neo4jClient, settings: Settings, embedder: MiniLMEmbedder, spec: str, repo: str
) -> dict[str, Any]:
    name, version = parse_spec(spec)
    source = extract_sdist(name, version, download_sdist(name, version))
    started = time.perf_counter()
    report = index_repository(source, repo, client=client, settings=settings, embedder=embedder)
    return {
        "files": report.files_total,
        "symbols": report.symbols,
        "embedded_now": report.embedded,
        "seconds": round(time.perf_counter() - started, 1),
    }


def measure(
    searcher: Searcher,
    baseline: HybridRetrieverBaseline,
    embedder: MiniLMEmbedder,
    vectors: dict[str, list[float]],
    *,
    repo: str,
    rounds: int,
    top_ks: Sequence[int],
) -> Samples:
    samples = Samples(
        [], [], [], [], {k: [] for k in top_ks}, {k: [] for k in top_ks},
        {k: set() for k in top_ks}, {}, [],
    )  # fmt: skip
    for round_number in range(rounds):
        order = QUESTIONS if round_number % 2 == 0 else tuple(reversed(QUESTIONS))
        for question in order:
            intent = analyse(question).intent.value
            started = time.perf_counter()
            vectors[question] = embedder.embed_query(question)
            embed_ms = (time.perf_counter() - started) * 1000
            samples.embed.append(embed_ms)
            systems = ["ours", *top_ks]
            if round_number % 2:
                systems.reverse()  # neither system always runs on a cache the other warmed
            for system in systems:
                if system == "ours":
                    started = time.perf_counter()
                    result = searcher.search(question, repo=repo, options=SearchOptions(k=10))
                    wall = (time.perf_counter() - started) * 1000
                    samples.search.append(wall)
                    # the vector leg's weight is 0 for relationship intents: no embedding
                    needs_vector = "embed" in result.timings_ms
                    samples.search_with_embed.append(wall + (embed_ms if needs_vector else 0.0))
                    samples.query.append(result.timings_ms["query"])
                    samples.query_by_question.append((question, result.timings_ms["query"]))
                    by_intent = samples.per_intent.setdefault(intent, {})
                    by_intent.setdefault("query", []).append(result.timings_ms["query"])
                    by_intent.setdefault("search", []).append(wall)
                else:
                    assert isinstance(system, int)
                    found = baseline.search(
                        question, repo=repo, k=10, vector=vectors[question], fetch=system
                    )
                    if found.error:
                        samples.baseline_failed[system].add(question)
                    else:
                        samples.baseline[system].append(found.seconds * 1000)
                        if system == min(top_ks):
                            by_intent = samples.per_intent.setdefault(intent, {})
                            by_intent.setdefault("baseline", []).append(found.seconds * 1000)
                        samples.baseline_with_embed[system].append(found.seconds * 1000 + embed_ms)
    return samples


def leg_timings(searcher: Searcher, repo: str) -> dict[str, dict[str, float]]:
    """The query with one leg at a time: which leg costs what."""
    out: dict[str, dict[str, float]] = {}
    for legs in (("vector",), ("text",), ("graph",), ("vector", "text")):
        options = SearchOptions(k=10, legs=legs)  # each leg asked for runs, weighted 1
        for question in QUESTIONS:  # warm-up: one plan per parameter-type combination
            searcher.search(question, repo=repo, options=options)
        values = [
            searcher.search(question, repo=repo, options=options).timings_ms["query"]
            for question in QUESTIONS
        ]
        out["+".join(legs)] = percentiles(values)
    return out


def _operators(plan: Any) -> Iterator[Any]:
    yield plan
    for child in plan.get("children", []):
        yield from _operators(child)


def slowest(samples: Samples, count: int = 5) -> list[str]:
    """The questions whose median query time is highest."""
    times: dict[str, list[float]] = {}
    for question, ms in samples.query_by_question:
        times.setdefault(question, []).append(ms)
    return sorted(times, key=lambda q: -statistics.median(times[q]))[:count]


def profile(
    client: Neo4jClient,
    searcher: Searcher,
    repo: str,
    questions: Sequence[str],
    vectors: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """`PROFILE` of the hybrid query: total db hits and the heaviest operators."""
    # the form the searcher runs on this server (Cypher 25 `SEARCH` on 2026.01+); PROFILE goes
    # after a `CYPHER 25` prefix
    text = hybrid_search_query(
        searcher.vector_form(), in_repo=True, vector_index=searcher.vector_index
    )
    prefix = "CYPHER 25\n" if text.startswith("CYPHER 25\n") else ""
    query = prefix + "PROFILE " + text.removeprefix(prefix)
    driver = neo4j.GraphDatabase.driver(client.endpoint.uri, auth=client.endpoint.auth())
    found = []
    try:
        with driver.session(database=client.database) as session:
            for question in questions:
                parameters = searcher.parameters(
                    analyse(question), SearchOptions(k=10), repo, vectors[question]
                )
                started = time.perf_counter()
                summary = session.run(query, parameters).consume()
                seconds = time.perf_counter() - started
                plan = summary.profile or {}
                operators = sorted(_operators(plan), key=lambda op: -int(op.get("dbHits", 0) or 0))
                found.append(
                    {
                        "question": question,
                        "ms": round(seconds * 1000, 1),
                        "db_hits": sum(int(op.get("dbHits", 0) or 0) for op in operators),
                        "top_operators": [
                            {
                                "operator": op.get("operatorType"),
                                "db_hits": op.get("dbHits"),
                                "rows": op.get("rows"),
                                "details": " ".join(
                                    str(op.get("args", {}).get("Details", "")).split()
                                )[:160],
                            }
                            for op in operators[:6]
                        ],
                    }
                )
    finally:
        driver.close()
    return found


def markdown(result: Mapping[str, Any]) -> str:
    ours, base = result["ours"], result["baseline"]
    lines = [
        "# Search latency on Django 5.1.4",
        "",
        f"{result['questions']} questions of mixed intents x {result['rounds']} rounds after a "
        f"warm-up; repository `{result['repo']}` ({result['graph']['nodes']} nodes, "
        f"{result['graph']['vectors']} vectors; {result['database']['vectors']} vectors and "
        f"{result['database']['nodes']} :Code nodes in the whole database). Load average "
        f"(1/5/15 min) before {result['load_before']}, after {result['load_after']} on "
        f"{result['cpus']} cores. Generated by `benchmarks/speed/search_latency.py` at commit "
        f"{str(result['git']['commit'])[:10]}{' (dirty)' if result['git']['dirty'] else ''}.",
        "",
        "| measurement | n | p50 ms | p95 ms |",
        "|---|---:|---:|---:|",
        f"| our Cypher query alone | {ours['query']['n']} | {ours['query']['p50']} | "
        f"{ours['query']['p95']} |",
        f"| `search()` end to end, embedding excluded | {ours['search']['n']} | "
        f"{ours['search']['p50']} | {ours['search']['p95']} |",
        f"| query embedding alone (MiniLM) | {ours['embed']['n']} | {ours['embed']['p50']} | "
        f"{ours['embed']['p95']} |",
    ]
    for top_k, stats in base.items():
        lines.append(
            f"| neo4j-graphrag HybridRetriever, top_k={top_k}, embedding excluded | "
            f"{stats['n']} | {stats['p50']} | {stats['p95']} |"
        )
    with_embed = ours.get("search_with_embed")
    if with_embed:
        lines.append(
            f"| `search()` including the query embedding where it needs one | "
            f"{with_embed['n']} | {with_embed['p50']} | {with_embed['p95']} |"
        )
    for top_k, stats in result.get("baseline_with_embed", {}).items():
        lines.append(
            f"| neo4j-graphrag HybridRetriever, top_k={top_k}, including the query embedding | "
            f"{stats['n']} | {stats['p50']} | {stats['p95']} |"
        )
    failed = {k: v["failed_questions"] for k, v in result["baseline_failures"].items()}
    lines += [
        "",
        f"neo4j-graphrag questions that failed to parse in Lucene (not timed): "
        f"{ {k: len(v) for k, v in failed.items()} }.",
        "",
        "By intent, p50 / p95 ms (embedding excluded; baseline at the smallest top_k):",
        "",
        "| intent | n | our query | `search()` | neo4j-graphrag |",
        "|---|---:|---:|---:|---:|",
    ]
    for intent, stats in sorted(result["per_intent"].items()):
        cells = " | ".join(
            f"{stats[name]['p50']} / {stats[name]['p95']}" if name in stats else "-"
            for name in ("query", "search", "baseline")
        )
        lines.append(f"| {intent} | {stats['query']['n']} | {cells} |")
    if result.get("legs"):
        lines += [
            "",
            "One leg at a time (query ms):",
            "",
            "| legs | p50 | p95 |",
            "|---|---:|---:|",
        ]
        for legs, stats in result["legs"].items():
            lines.append(f"| {legs} | {stats['p50']} | {stats['p95']} |")
    for item in result.get("profile", []):
        top = "; ".join(
            f"{op['operator']} {op['db_hits']} hits ({op['details'][:60]})"
            for op in item["top_operators"][:3]
        )
        lines.append(
            f"\nPROFILE `{item['question']}` ({item['ms']} ms): {item['db_hits']} db hits. "
            f"Top: {top}"
        )
    return "\n".join(lines) + "\n"


def graph_size(client: Neo4jClient, repo: str) -> tuple[dict[str, int], dict[str, int]]:
    sizes = GraphReader(client).repository_sizes()
    mine = sizes.get(repo, RepositorySize(nodes=0, vectors=0))
    total = {
        "nodes": sum(s.nodes for s in sizes.values()),
        "vectors": sum(s.vectors for s in sizes.values()),
    }
    return {"nodes": mine.nodes, "vectors": mine.vectors}, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--repo", default=REPO)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--top-k", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--no-index", action="store_true", help="skip the incremental index")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    settings = load_settings()
    embedder = MiniLMEmbedder(batch_size=settings.embed_batch_size)
    with connect(settings) as client:
        indexed = None
        if not args.no_index:
            indexed = ensure_indexed(client, settings, embedder, args.package, args.repo)
        graph, database = graph_size(client, args.repo)
        vectors = {question: embedder.embed_query(question) for question in QUESTIONS}
        searcher = Searcher(
            client,
            FixedVectors(embedder, vectors),
            vector_index=settings.vector_index,
            fulltext_index=settings.fulltext_index,
        )
        baseline = HybridRetrieverBaseline(
            client.endpoint,
            embedder,
            vector_index=settings.vector_index,
            fulltext_index=settings.fulltext_index,
            database=client.database,
        )
        try:
            run = {"repo": args.repo, "top_ks": args.top_k}
            measure(searcher, baseline, embedder, vectors, rounds=1, **run)  # warm-up
            load_before = load_average()
            samples = measure(searcher, baseline, embedder, vectors, rounds=args.rounds, **run)
            load_after = load_average()
            legs, profiled = {}, []
            if args.profile:
                legs = leg_timings(searcher, args.repo)
                profiled = profile(client, searcher, args.repo, slowest(samples), vectors)
        finally:
            baseline.close()
    result = {
        "package": args.package,
        "repo": args.repo,
        "git": git_commit(),
        "indexed": indexed,
        "graph": graph,
        "database": database,
        "questions": len(QUESTIONS),
        "rounds": args.rounds,
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": load_after,
        "embedder": embedder.name,
        "ours": {
            "query": percentiles(samples.query),
            "search": percentiles(samples.search),
            "embed": percentiles(samples.embed),
            "search_with_embed": percentiles(samples.search_with_embed),
        },
        "baseline": {str(k): percentiles(v) for k, v in samples.baseline.items()},
        "baseline_with_embed": {
            str(k): percentiles(v) for k, v in samples.baseline_with_embed.items()
        },
        "baseline_failures": {
            str(k): {"failed_questions": sorted(v)} for k, v in samples.baseline_failed.items()
        },
        "per_intent": {
            intent: {name: percentiles(values) for name, values in measured.items()}
            for intent, measured in samples.per_intent.items()
        },
        "legs": legs,
        "profile": profiled,
    }
    args.output_dir.mkdir(parents=True, exist_ok=True)
    (args.output_dir / "search_latency.json").write_text(json.dumps(result, indent=2) + "\n")
    text = markdown(result)
    (args.output_dir / "search_latency.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
