"""Embedding stage of `index` vs the embedder alone (MiniLM by default), on the same ghost texts.

The issue's goal: the stage (Neo4j reads, ghost texts, inference, writes) runs at >= 0.8 of the
texts/s the model reaches on its own. The package's sdist (default requests 2.32.3) is indexed
with embeddings off into a private Neo4j server (or NEO4J_URI), its ghost texts are read back,
then:

* model alone: `embed_documents` over all ghost texts at once (sorted by length globally, the
  best case for padding);
* stage: `embed_pending` end to end, vectors marked out of date before each repeat.

The model is loaded and warmed up before either is timed; best of `--repeats` for both, since
other processes only ever make a run slower. Peak RSS is this process's, reset before each
phase where Linux allows (/proc/self/clear_refs). Prints a Markdown row and the command.

    .venv/bin/python -m benchmarks.speed.embedding_stage [--package requests==2.32.3] [--repeats 2]
        [--json out.json] [--embedder minilm|bge-small|e5-small] [--limit N]

`--limit N` embeds only the first N pending nodes (id order) in the stage and their distinct
ghost texts alone: a sample of a large package (Django) whose texts/s, times its node count,
projects the stage's time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common.server import endpoint_for_run
from benchmarks.oracles.packages import fetch, parse_spec
from graphrag_code.api import schema_config
from graphrag_code.embedding import make_embedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.embed_stage import embed_pending, forget_embeddings, node_ghost_text
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.settings import load_settings

REPO = "bench-embedding-stage"


def _reset_peak_rss() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _peak_rss_mib() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _ghost_texts(client: Neo4jClient, limit: int | None) -> list[str]:
    """One ghost text per distinct content hash: what the stage has to embed (of the first
    `limit` nodes in id order, the order the stage reads them)."""
    rows = client.read(
        "MATCH (n:Code {repo: $repo}) WITH n ORDER BY n.id LIMIT $limit "
        "RETURN n.content_hash AS content_hash, n.path AS path, "
        "n.qualified_name AS qualified_name, n.kind AS kind, n.signature AS signature, "
        "n.docstring AS docstring, n.code AS code",
        {"repo": REPO, "limit": limit if limit is not None else 10**9},
    )
    return list({row["content_hash"]: node_ghost_text(row) for row in rows}.values())


def run(spec: str, repeats: int, embedder_name: str, limit: int | None) -> dict[str, Any]:
    name, version = parse_spec(spec)
    import_root, _package = fetch(name, version)
    source = import_root.parent if import_root.name == "src" else import_root
    embedder = make_embedder(load_settings(embedder=embedder_name))
    embedder.embed_documents(["warm up the model", "def f(): return 1"] * 8)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, endpoint_for_run() as endpoint:
        client = Neo4jClient(endpoint)
        try:
            settings = load_settings()
            config = schema_config(settings, dimensions=embedder.dimensions, model=embedder.name)
            ensure_schema(client, config)
            GraphWriter(client, REPO).delete_repository()
            index = build_graph(source, client, repo=REPO, state_dir=Path(tmp) / "state")
            texts = _ghost_texts(client, limit)
            nodes = client.read(
                "MATCH (n:Code {repo: $repo}) RETURN count(n) AS n", {"repo": REPO}
            )[0]["n"]

            # Interleaved, so that a change in the machine's load hits both alike.
            stage: list[dict[str, Any]] = []
            model_seconds: list[float] = []
            stage_peak = model_peak = 0.0
            for _ in range(repeats):
                forget_embeddings(client, REPO)
                _reset_peak_rss()
                report = embed_pending(client, REPO, embedder, limit=limit)
                stage_peak = max(stage_peak, _peak_rss_mib())
                stage.append(report.as_dict())
                _reset_peak_rss()
                started = time.perf_counter()
                embedder.embed_documents(texts)
                model_seconds.append(time.perf_counter() - started)
                model_peak = max(model_peak, _peak_rss_mib())
            assert all(r["embedded"] == len(texts) for r in stage), stage
            GraphWriter(client, REPO).delete_repository()
        finally:
            client.close()
    load_after = os.getloadavg()
    best_stage = max(stage, key=lambda r: float(r["texts_per_second"]))
    model_rate = len(texts) / min(model_seconds)
    stage_rate = float(best_stage["texts_per_second"])
    return {
        "package": spec,
        "embedder": embedder.name,
        "files": index.files_total,
        "nodes": nodes,
        "limit": limit,
        "texts": len(texts),
        "mean_ghost_chars": round(sum(map(len, texts)) / max(len(texts), 1)),
        "model_texts_per_s": round(model_rate, 2),
        "stage_texts_per_s": round(stage_rate, 2),
        "ratio": round(stage_rate / model_rate, 3),
        "stage_runs": stage,
        "model_seconds": [round(s, 2) for s in model_seconds],
        "peak_rss_mib": {"stage": round(stage_peak, 1), "model_alone": round(model_peak, 1)},
        "loadavg_1_5_15": {"before": load_before, "after": load_after},
        "cpus": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "neo4j": endpoint.source,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="requests==2.32.3")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--embedder", default="minilm", help="minilm, bge-small or e5-small")
    parser.add_argument("--limit", type=int, help="embed only the first N pending nodes")
    args = parser.parse_args()
    result = run(args.package, args.repeats, args.embedder, args.limit)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")
    load = ", ".join(f"{x:.2f}" for x in result["loadavg_1_5_15"]["before"])
    print()
    print(
        "| package | texts | model alone texts/s | stage texts/s | ratio | stage peak RSS MiB "
        "| load avg (1/5/15 min, before) |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {result['package']} | {result['texts']} | {result['model_texts_per_s']} "
        f"| {result['stage_texts_per_s']} | {result['ratio']} "
        f"| {result['peak_rss_mib']['stage']} | {load} |"
    )
    print()
    print("command: .venv/bin/python -m benchmarks.speed.embedding_stage " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
