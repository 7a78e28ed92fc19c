"""The two forms of the vector leg, and one repository's answers beside a large neighbour.

    .venv/bin/python -m benchmarks.retrieval.search_forms --neo4j-version 2026.08.1
    .venv/bin/python -m benchmarks.retrieval.search_forms --neo4j-version 2026.08.1 \
        --quantization SCALAR
    .venv/bin/python -m benchmarks.retrieval.search_forms --neo4j-version 5.26.30

Starts a throwaway local Neo4j of that version (heap 1g, page cache 512m; a calendar release
needs Java 21+), indexes requests 2.32.3 as `target` with the hashing embedder (no model: the
vector leg's cost does not depend on what the vectors mean; `--embedder minilm` for MiniLM),
then measures every form of the vector leg the server has:

    alone      `search()` p50/p95 over QUESTIONS x `--rounds` after a warm-up, the forms
               interleaved, the query vector precomputed (embedding excluded); and whether the
               forms give the same answers (every leg, every hit)
    beside     the same after Django 5.1.4 (~42k nodes, hashing vectors) joins the database as
               `neighbour`; and, per question, whether each leg, the fused top 10 and the top 5
               files for `target` are identical to those alone

Writes benchmarks/results/search_forms_<version>[_<quantization>].{json,md} with the load
average before and after (two shared cores: latency is noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common.paths import RESULTS_DIR
from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from benchmarks.speed.search_latency import FixedVectors, percentiles
from graphrag_code.api import index_repository
from graphrag_code.embedding import HashingEmbedder, MiniLMEmbedder
from graphrag_code.embedding.base import Embedder
from graphrag_code.evaluation.runlog import git_commit
from graphrag_code.graph import GraphReader, SchemaConfig, VectorSearchForm, ensure_schema
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.retrieval.search import Searcher, SearchOptions, SearchResult
from graphrag_code.runtime.server.endpoints import temporary_local_server
from graphrag_code.settings import Settings

RESULTS = RESULTS_DIR
TARGET, NEIGHBOUR = "target", "neighbour"

QUESTIONS: tuple[str, ...] = (
    # concept
    "how are cookies extracted from a response",
    "where are redirects followed",
    "how is the proxy for a url chosen from the environment",
    "where is the response body decoded to text",
    "how are basic auth credentials added to a request",
    "where is the request body encoded as multipart form data",
    "how are connection adapters mounted on a session",
    "where is the content of a response streamed in chunks",
    "how is the encoding of a response guessed",
    "where are hooks dispatched",
    "how are netrc credentials looked up",
    "where does a session merge its settings with the request's",
    # definition
    "Where is `Session.request` defined?",
    "Where is `HTTPAdapter.send` defined?",
    "Where is `PreparedRequest.prepare_url` defined?",
    "where is get_encoding_from_headers defined?",
    "Where is `RequestsCookieJar` defined?",
    "find the class CaseInsensitiveDict",
    # callers
    "What calls `to_key_val_list`?",
    "What calls get_netrc_auth?",
    "Who calls `merge_setting`?",
    "What calls `Session.send`?",
    "What calls `extract_cookies_to_jar`?",
    "Who uses requote_uri?",
    # callees
    "What does `Session.request` call?",
    "What does `HTTPAdapter.send` call?",
    "What does `PreparedRequest.prepare` call?",
    # impact
    "What breaks if I change requests/utils.py?",
    "What breaks if I change requests/cookies.py?",
    "What breaks if I change `requests.structures`?",
    # importers, dependencies
    "Who imports requests.compat?",
    "Which modules import `requests.exceptions`?",
    "What does requests/sessions.py import?",
    # trace
    "Trace `Session.get` to the adapter's send",
    "How does `requests.get` reach `HTTPAdapter.send`?",
)


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _index(
    client: Neo4jClient, settings: Settings, embedder: Embedder, spec: str, repo: str
) -> dict[str, Any]:
    name, version = parse_spec(spec)
    source = extract_sdist(name, version, download_sdist(name, version))
    started = time.perf_counter()
    report = index_repository(source, repo, client=client, settings=settings, embedder=embedder)
    return {
        "package": spec,
        "files": report.files_total,
        "symbols": report.symbols,
        "seconds": round(time.perf_counter() - started, 1),
    }


def _searchers(
    client: Neo4jClient, embedder: Embedder, forms: Sequence[VectorSearchForm]
) -> dict[VectorSearchForm, Searcher]:
    return {
        form: Searcher(
            client,
            embedder,
            vector_index="code_embedding",
            fulltext_index="code_search_text",
            vector_form=form,
        )
        for form in forms
    }


def _latency(
    searchers: Mapping[VectorSearchForm, Searcher], rounds: int
) -> tuple[dict[str, Any], dict[VectorSearchForm, dict[str, SearchResult]]]:
    """Warm up (one plan per parameter-type combination), then time every question `rounds`
    times per form, interleaving the forms and reversing the order every other round."""
    options = SearchOptions(k=10)
    answers = {
        form: {q: searcher.search(q, repo=TARGET, options=options) for q in QUESTIONS}
        for form, searcher in searchers.items()
    }
    search: dict[VectorSearchForm, list[float]] = {form: [] for form in searchers}
    query: dict[VectorSearchForm, list[float]] = {form: [] for form in searchers}
    for round_number in range(rounds):
        order = QUESTIONS if round_number % 2 == 0 else tuple(reversed(QUESTIONS))
        for question in order:
            forms = list(searchers)
            for form in forms if round_number % 2 == 0 else reversed(forms):
                started = time.perf_counter()
                result = searchers[form].search(question, repo=TARGET, options=options)
                search[form].append((time.perf_counter() - started) * 1000)
                query[form].append(result.timings_ms["query"])
    stats = {
        form.value: {"search": percentiles(search[form]), "query": percentiles(query[form])}
        for form in searchers
    }
    return stats, answers


def _files(result: SearchResult, count: int = 5) -> list[str]:
    return list(dict.fromkeys(hit.path for hit in result.hits))[:count]


def _difference(alone: list[str], beside: list[str]) -> dict[str, Any]:
    changed = [i for i, (a, b) in enumerate(zip(alone, beside, strict=False)) if a != b]
    return {
        "first_changed_rank": changed[0] + 1 if changed else min(len(alone), len(beside)) + 1,
        "alone": [item.split(":", 1)[-1] for item in alone],
        "beside": [item.split(":", 1)[-1] for item in beside],
    }


def _same(before: Mapping[str, SearchResult], after: Mapping[str, SearchResult]) -> dict[str, Any]:
    """Per leg, fused hits and top-5 files: how many questions are identical, and which not."""
    checks: dict[str, Callable[[SearchResult], list[str]]] = {
        "vector": lambda r: r.legs.get("vector", []),
        "text": lambda r: r.legs.get("text", []),
        "graph": lambda r: r.legs.get("graph", []),
        "hits": lambda r: [hit.id for hit in r.hits],
        "files": _files,
    }
    out: dict[str, Any] = {}
    for name, read in checks.items():
        differing = [q for q in QUESTIONS if read(before[q]) != read(after[q])]
        out[name] = {
            "identical": len(QUESTIONS) - len(differing),
            "differing": differing,
            # how they differ: the first rank that changed, and both lists (short ids)
            "examples": {q: _difference(read(before[q]), read(after[q])) for q in differing[:5]},
        }
    short = [
        q
        for q in QUESTIONS
        if len(after[q].legs.get("vector", [])) < len(before[q].legs.get("vector", []))
    ]
    out["vector_leg_shorter"] = short
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings(neo4j_version=args.neo4j_version, embedder="hashing")
    base_embedder: Embedder = HashingEmbedder() if args.embedder == "hashing" else MiniLMEmbedder()
    server = temporary_local_server(settings, heap="1g", pagecache="512m")
    with server as (_server, endpoint), Neo4jClient(endpoint) as client:
        capabilities = client.capabilities()
        ensure_schema(
            client,
            SchemaConfig(
                dimensions=base_embedder.dimensions,
                model=base_embedder.name,
                vector_quantization=args.quantization,
            ),
        )
        indexed = [_index(client, settings, base_embedder, args.package, TARGET)]
        vectors = {q: base_embedder.embed_query(q) for q in QUESTIONS}
        embedder = FixedVectors(base_embedder, vectors)  # type: ignore[arg-type]
        forms = [VectorSearchForm.PROCEDURE]
        if capabilities.vector_search_filters:
            forms.append(VectorSearchForm.SEARCH)
        load_before = _load()
        alone, answers_alone = _latency(_searchers(client, embedder, forms), args.rounds)
        indexed.append(_index(client, settings, base_embedder, args.neighbour, NEIGHBOUR))
        beside, answers_beside = _latency(_searchers(client, embedder, forms), args.rounds)
        load_after = _load()
        sizes = [
            {"repo": name, "nodes": size.nodes, "vectors": size.vectors}
            for name, size in GraphReader(client).repository_sizes().items()
        ]
        index = client.read(
            "SHOW VECTOR INDEXES YIELD properties, options "
            "RETURN properties, options.indexConfig AS config"
        )
    forms_agree = None
    if len(forms) == 2:
        forms_agree = _same(
            answers_alone[VectorSearchForm.PROCEDURE], answers_alone[VectorSearchForm.SEARCH]
        )
    return {
        "neo4j": {"version": capabilities.version, "cypher": list(capabilities.cypher_versions)},
        "vector_index": index[0] if index else None,
        "embedder": base_embedder.name,
        "indexed": indexed,
        "sizes": sizes,
        "questions": len(QUESTIONS),
        "rounds": args.rounds,
        "latency_alone": alone,
        "latency_beside_neighbour": beside,
        "forms_agree_alone": forms_agree,
        "isolation": {
            form.value: _same(answers_alone[form], answers_beside[form]) for form in forms
        },
        "load_before": load_before,
        "load_after": load_after,
        "cpus": os.cpu_count(),
        "git": git_commit(),
    }


def markdown(result: Mapping[str, Any]) -> str:
    target, neighbour = result["indexed"]
    lines = [
        f"# Vector-leg forms on Neo4j {result['neo4j']['version']}",
        "",
        f"`{target['package']}` as `{TARGET}` ({target['symbols']} symbols), then "
        f"`{neighbour['package']}` as `{NEIGHBOUR}` ({neighbour['symbols']} symbols); embedder "
        f"{result['embedder']}; vector index {result['vector_index']}. {result['questions']} "
        f"questions x {result['rounds']} rounds per form; load average before "
        f"{result['load_before']}, after {result['load_after']} on {result['cpus']} cores. "
        f"Commit {str(result['git']['commit'])[:10]}"
        f"{' (dirty)' if result['git']['dirty'] else ''}.",
        "",
        "| form | database | `search()` p50 ms | p95 ms | query p50 ms | query p95 ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    runs = (("target alone", "latency_alone"), ("+ neighbour", "latency_beside_neighbour"))
    for label, key in runs:
        for form, stats in result[key].items():
            lines.append(
                f"| {form} | {label} | {stats['search']['p50']} | {stats['search']['p95']} | "
                f"{stats['query']['p50']} | {stats['query']['p95']} |"
            )
    lines += [
        "",
        f"Answers for `{TARGET}` identical with and without the neighbour "
        f"(of {result['questions']} questions):",
        "",
        "| form | vector leg | text leg | graph leg | fused top 10 | top 5 files "
        "| vector leg cut short |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for form, same in result["isolation"].items():
        names = ("vector", "text", "graph", "hits", "files")
        cells = " | ".join(str(same[name]["identical"]) for name in names)
        lines.append(f"| {form} | {cells} | {len(same['vector_leg_shorter'])} |")
    agree = result.get("forms_agree_alone")
    if agree:
        cells = ", ".join(
            f"{name} {agree[name]['identical']}" for name in ("vector", "text", "graph", "hits")
        )
        lines += ["", f"Both forms, `{TARGET}` alone, identical answers: {cells}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--neo4j-version", default="2026.08.1")
    parser.add_argument("--quantization", choices=["SCALAR", "NONE"], default="NONE")
    parser.add_argument("--package", default="requests==2.32.3")
    parser.add_argument("--neighbour", default="django==5.1.4")
    parser.add_argument("--embedder", choices=["hashing", "minilm"], default="hashing")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    result = run(args)
    stem = f"search_forms_{args.neo4j_version}"
    if result["neo4j"]["cypher"] != ["5"]:
        stem += f"_{args.quantization.lower()}"
    args.output_dir.mkdir(parents=True, exist_ok=True)
    (args.output_dir / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.output_dir / f"{stem}.md").write_text(markdown(result))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
