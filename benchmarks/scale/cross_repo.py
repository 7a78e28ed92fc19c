"""Cross-repository edges on real packages: requests and urllib3 (the library it calls),
indexed into one throwaway database in both orders, embeddings off.

Reports, per order: index seconds per repository and of its `cross` stage, the cross edges
written (requests → urllib3, by type and tier), the `:External` targets named `urllib3.*`
that stayed external (and why, roughly: re-exports such as `urllib3.PoolManager`, which
`urllib3/__init__.py` imports from `urllib3.poolmanager`), and whether both orders give the
same set of edges (both ends' ids and the tier).

    .venv/bin/python -m benchmarks.scale.cross_repo [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.runtime.server.endpoints import temporary_local_server
from graphrag_code.settings import load_settings

PACKAGES = {"requests": "2.32.3", "urllib3": "2.2.1"}
Edge = tuple[str, str, str, str | None]


def _source(name: str) -> Path:
    version = PACKAGES[name]
    return extract_sdist(name, version, download_sdist(name, version))


def _edges(client: Neo4jClient) -> set[Edge]:
    rows = client.read(
        "MATCH (s:Code)-[r:CALLS|IMPORTS|INHERITS|USES_TYPE]->(t) "
        "RETURN s.id AS s, type(r) AS type, coalesce(t.id, 'external:' + t.qualified_name) AS t, "
        "r.resolution AS resolution"
    )
    return {(row["s"], row["type"], row["t"], row["resolution"]) for row in rows}


def _cross(client: Neo4jClient) -> Counter[str]:
    rows = client.read(
        "MATCH (s:Code {repo: 'requests'})-[r]->(t:Code {repo: 'urllib3'}) "
        "RETURN type(r) + '/' + coalesce(r.resolution, '-') AS kind, count(*) AS n"
    )
    return Counter({row["kind"]: int(row["n"]) for row in rows})


def _left_external(client: Neo4jClient) -> list[str]:
    rows = client.read(
        "MATCH (:Code {repo: 'requests'})-[]->(e:External {package: 'urllib3'}) "
        "RETURN DISTINCT e.qualified_name AS name ORDER BY name"
    )
    return [row["name"] for row in rows]


def _run(
    client: Neo4jClient, order: list[str], sources: dict[str, Path], state: Path
) -> dict[str, Any]:
    for repo in order:  # a clean database for each order
        if GraphWriter(client, repo).repository_state() is not None:
            GraphWriter(client, repo).delete_repository()
    timings: dict[str, Any] = {}
    for repo in order:
        started = time.perf_counter()
        report = build_graph(sources[repo], client, repo=repo, state_dir=state / "-".join(order))
        timings[repo] = {
            "seconds": round(time.perf_counter() - started, 2),
            "cross_seconds": round(report.seconds.get("cross", 0.0), 3),
            "cross_repo_edges": report.cross_repo_edges,
            "cross_repo_ambiguous": report.cross_repo_ambiguous,
            "files": report.files_total,
            "symbols": report.symbols,
        }
    return {
        "order": order,
        "runs": timings,
        "cross_edges": dict(sorted(_cross(client).items())),
        "left_external": _left_external(client),
        "edges": _edges(client),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    sources = {name: _source(name) for name in PACKAGES}
    settings = load_settings()
    with (
        temporary_local_server(settings) as (_server, endpoint),
        Neo4jClient(endpoint) as client,
        tempfile.TemporaryDirectory() as tmp,
    ):
        ensure_schema(client, SchemaConfig())
        first = _run(client, ["urllib3", "requests"], sources, Path(tmp))
        second = _run(client, ["requests", "urllib3"], sources, Path(tmp))
    same = first["edges"] == second["edges"]
    result = {
        "packages": PACKAGES,
        "orders": [
            {k: v for k, v in run.items() if k != "edges"} | {"edges_total": len(run["edges"])}
            for run in (first, second)
        ],
        "same_graph_in_both_orders": same,
        "edges_only_in_first": sorted(map(list, first["edges"] - second["edges"]))[:20],
        "edges_only_in_second": sorted(map(list, second["edges"] - first["edges"]))[:20],
    }
    text = json.dumps(result, indent=2, default=str)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
