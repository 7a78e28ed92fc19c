"""Concurrent searches: 8 threads x 50 mixed questions on requests 2.32.3 (MiniLM vectors).

Three ways a multi-threaded program can search (issue 13):

    shared           one `CodeGraph` used by every thread
    per-thread       one `CodeGraph` per thread, all sharing the process's one loaded model
                     (what every `MiniLMEmbedder` does now)
    per-thread-own   one `CodeGraph` per thread, each loading its own copy of the model on
                     its first search (what they did before the model was shared)

    .venv/bin/python -m benchmarks.speed.concurrent_search [--threads 8] [--searches 50]
        [--json benchmarks/results/concurrent_search.json]

Indexes the sdist into a private Neo4j (or NEO4J_URI), runs every question once so that Neo4j
has planned the query (seconds, once per parameter shape), then times each search end to end
(question analysis, query embedding, the hybrid query, fusion) in every mode. Errors are
counted, not raised. Writes the per-mode percentiles with the load average (two shared cores:
check `uptime` first).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import fetch, parse_spec
from graphrag_code.api import index_repository
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import MiniLMEmbedder
from graphrag_code.embedding.minilm import _Model, default_model_path, default_tokenizer_path
from graphrag_code.errors import GraphRAGCodeError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.runtime.server.endpoints import resolve_endpoint, temporary_local_server
from graphrag_code.settings import Settings, load_settings

REPO = "bench-concurrent-search"
MODES = ("shared", "per-thread", "per-thread-own")

QUESTIONS: tuple[str, ...] = (
    # concept (vector + full-text)
    "how are cookies stored between requests?",
    "where is the proxy configuration read from the environment?",
    "how are redirects followed?",
    "where is basic authentication added to a request?",
    "how is the response body decoded to text?",
    "where are SSL certificates verified?",
    "how are request retries configured?",
    "where are multipart file uploads encoded?",
    # definition
    "Where is `Session.request` defined?",
    "where is the function get_encoding_from_headers defined?",
    "find the class HTTPAdapter",
    "Where is `PreparedRequest.prepare_body` defined?",
    # relationships (graph + full-text, no query embedding)
    "what calls merge_setting?",
    "who calls `Session.send`?",
    "what does `Session.request` call?",
    "what breaks if I change requests/utils.py?",
    "who imports requests.compat?",
    "what does requests/sessions.py import?",
)


@contextmanager
def _neo4j(settings: Settings) -> Iterator[Neo4jEndpoint]:
    """NEO4J_URI when set, else a private server for this run."""
    if settings.neo4j_uri:
        yield resolve_endpoint(settings)
        return
    with temporary_local_server(settings) as (_server, endpoint):
        yield endpoint


class _OwnModel(MiniLMEmbedder):
    """A MiniLM embedder that loads a private copy of the model, as each embedder did before
    the process-wide model (issue 13); only here to measure the difference."""

    def _shared(self) -> _Model:
        return self._load(
            self._model_path or default_model_path(),
            self._tokenizer_path or default_tokenizer_path(),
        )


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def _run_mode(
    mode: str,
    client: Neo4jClient,
    settings: Settings,
    threads: int,
    searches: int,
) -> dict[str, Any]:
    shared_model = MiniLMEmbedder()
    shared = CodeGraph(settings, client=client, embedder=shared_model)
    shared.search(QUESTIONS[0], repo=REPO)  # the searcher exists and the model is loaded

    def graph_for_thread() -> CodeGraph:
        if mode == "shared":
            return shared
        embedder = _OwnModel() if mode == "per-thread-own" else MiniLMEmbedder()
        return CodeGraph(settings, client=client, embedder=embedder)

    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def worker(offset: int, make: Callable[[], CodeGraph]) -> None:
        graph = make()
        start.wait()
        mine: list[float] = []
        for i in range(searches):
            question = QUESTIONS[(offset * 7 + i) % len(QUESTIONS)]
            started = time.perf_counter()
            try:
                graph.search(question, repo=REPO)
            except GraphRAGCodeError as exc:
                with lock:
                    errors.append(f"{type(exc).__name__}: {exc}")
                continue
            mine.append((time.perf_counter() - started) * 1000)
        with lock:
            latencies.extend(mine)

    began = time.perf_counter()
    workers = [
        threading.Thread(target=worker, args=(n, graph_for_thread), name=f"search-{n}")
        for n in range(threads)
    ]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    wall = time.perf_counter() - began
    return {
        "mode": mode,
        "searches": len(latencies),
        "errors": len(errors),
        "error_examples": errors[:3],
        "p50_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(_percentile(latencies, 0.95), 1),
        "p99_ms": round(_percentile(latencies, 0.99), 1),
        "max_ms": round(max(latencies), 1),
        "searches_per_s": round(len(latencies) / wall, 1),
    }


def run(spec: str, threads: int, searches: int) -> dict[str, Any]:
    name, version = parse_spec(spec)
    import_root, _package = fetch(name, version)
    source = import_root.parent if import_root.name == "src" else import_root
    settings = load_settings(embedder="minilm")
    results = []
    with tempfile.TemporaryDirectory() as tmp, _neo4j(settings) as endpoint:
        settings = settings.model_copy(update={"cache_dir": Path(tmp)})
        client = Neo4jClient(endpoint)
        try:
            report = index_repository(source, REPO, client=client, settings=settings)
            warm = CodeGraph(settings, client=client)
            for question in QUESTIONS:  # Neo4j plans the query once per parameter shape
                warm.search(question, repo=REPO)
            load_before = os.getloadavg()
            for mode in MODES:
                results.append(_run_mode(mode, client, settings, threads, searches))
            load_after = os.getloadavg()
        finally:
            client.close()
    return {
        "package": spec,
        "symbols": report.symbols,
        "threads": threads,
        "searches_per_thread": searches,
        "questions": len(QUESTIONS),
        "modes": results,
        "loadavg_1_5_15": {"before": load_before, "after": load_after},
        "cpus": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "neo4j": endpoint.source,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="requests==2.32.3")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--searches", type=int, default=50, help="per thread")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.package, args.threads, args.searches)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")
    load = ", ".join(f"{x:.2f}" for x in result["loadavg_1_5_15"]["before"])
    print()
    print("| mode | searches | errors | p50 ms | p95 ms | p99 ms | max ms | searches/s |")
    print("|---|---|---|---|---|---|---|---|")
    for mode in result["modes"]:
        print(
            f"| {mode['mode']} | {mode['searches']} | {mode['errors']} | {mode['p50_ms']} "
            f"| {mode['p95_ms']} | {mode['p99_ms']} | {mode['max_ms']} "
            f"| {mode['searches_per_s']} |"
        )
    print()
    print(f"load average before (1/5/15 min): {load}; CPUs: {result['cpus']}")
    print(
        "command: .venv/bin/python -m benchmarks.speed.concurrent_search " + " ".join(sys.argv[1:])
    )


if __name__ == "__main__":
    main()
