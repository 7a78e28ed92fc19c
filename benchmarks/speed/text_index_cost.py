"""What a repository's own full-text index costs at indexing time (graph/scoping.py).

    .venv/bin/python -m benchmarks.speed.text_index_cost [--package django==5.1.4] [--rounds 2]

Starts a throwaway local Neo4j (`--neo4j-version`, default 5.26.30; heap 1g, page cache
512m), then indexes the package from scratch (no embeddings) `--rounds` times each way,
alternating: with the shared full-text index only (what `build_graph` alone gets), and with
the repository's own index too (what `index_repository` and the CLI create). Reports the
whole run and its write stage, best and median of the rounds. Writes
benchmarks/results/text_index_cost.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common.paths import RESULTS_DIR
from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.evaluation.runlog import git_commit
from graphrag_code.graph import GraphWriter, SchemaConfig, ensure_schema
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import IndexOptions, build_graph
from graphrag_code.runtime.server.endpoints import temporary_local_server
from graphrag_code.settings import Settings

RESULTS = RESULTS_DIR
REPO = "bench-text-index"


def _index_once(client: Neo4jClient, source: Path, *, own_index: bool) -> dict[str, float]:
    GraphWriter(client, REPO).delete_repository()  # drops the repository's own index too
    ensure_schema(client, SchemaConfig(), repo=REPO if own_index else None)
    with tempfile.TemporaryDirectory() as state:
        started = time.perf_counter()
        report = build_graph(
            source, client, repo=REPO, state_dir=Path(state), options=IndexOptions(full=True)
        )
        total = time.perf_counter() - started
    return {"total": total, "write": report.seconds.get("write", 0.0)}


def _summary(values: list[float]) -> dict[str, float]:
    return {"best": round(min(values), 2), "median": round(statistics.median(values), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--neo4j-version", default="5.26.30")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--output", type=Path, default=RESULTS / "text_index_cost.json")
    args = parser.parse_args(argv)
    name, version = parse_spec(args.package)
    source = extract_sdist(name, version, download_sdist(name, version))
    runs: dict[str, list[dict[str, float]]] = {"shared only": [], "shared + own": []}
    load_before = [round(x, 2) for x in os.getloadavg()]
    settings = Settings(neo4j_version=args.neo4j_version)
    server = temporary_local_server(settings, heap="1g", pagecache="512m")
    with server as (_server, endpoint), Neo4jClient(endpoint) as client:
        for _ in range(args.rounds):
            for label, own in (("shared only", False), ("shared + own", True)):
                runs[label].append(_index_once(client, source, own_index=own))
    result: dict[str, Any] = {
        "package": args.package,
        "neo4j": args.neo4j_version,
        "rounds": args.rounds,
        "seconds": {
            label: {
                "total": _summary([r["total"] for r in values]),
                "write": _summary([r["write"] for r in values]),
            }
            for label, values in runs.items()
        },
        "load_before": load_before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "git": git_commit(),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["seconds"], indent=2), result["load_before"], result["load_after"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
