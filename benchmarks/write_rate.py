"""Our write stage against the server's raw write rate, on the same rows, in the same run.

Issue 20 asks the write stage of a full index to reach 0.8 x the rate of plain
`UNWIND ... CREATE` in 10k batches. Load and server state move both figures, so both are
taken back to back: first a full index of the package (embeddings off) and its `write` stage
time; then the very nodes and relationships it wrote (read back from the graph: the same ids,
properties, code text) are written again under a separate label with `CREATE` in 10k batches,
relationships matched by id; then removed.

    .venv/bin/python -m benchmarks.write_rate [--package django==5.1.4] [--json out.json]

Rows: nodes plus their CONTAINS / DEFINES / CALLS / IMPORTS / INHERITS / USES_TYPE
relationships (TESTS edges are the tests stage's, not the write stage's). Edges to :External
nodes are written raw to raw copies of those externals.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.api import connect
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import build_graph

REPO = "bench-write-rate"
BATCH = 10_000
_TYPES = ["CONTAINS", "DEFINES", "CALLS", "IMPORTS", "INHERITS", "USES_TYPE"]


def _read_rows(client: Neo4jClient) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    nodes = client.read(
        "MATCH (n:Code {repo: $repo}) RETURN n.id AS id, properties(n) AS props", {"repo": REPO}
    )
    rels = client.read(
        "MATCH (s {repo: $repo})-[r]->(t) WHERE type(r) IN $types "
        "RETURN s.id AS source, type(r) AS type, coalesce(t.id, 'ext:' + t.qualified_name) "
        "AS target, properties(r) AS props",
        {"repo": REPO, "types": _TYPES},
    )
    rels += client.read(
        "MATCH (:Repository {name: $repo})-[r:CONTAINS]->(m) "
        "RETURN 'repo:' + $repo AS source, 'CONTAINS' AS type, m.id AS target, {} AS props",
        {"repo": REPO},
    )
    return nodes, rels


def _raw_write(
    client: Neo4jClient, nodes: list[dict[str, Any]], rels: list[dict[str, Any]]
) -> dict[str, float]:
    client.write("CREATE INDEX raw_bench_id IF NOT EXISTS FOR (n:RawBench) ON (n.id)")
    client.write("CALL db.awaitIndexes(300)")
    ends = {r["source"] for r in rels} | {r["target"] for r in rels}
    extra = [{"id": e, "props": {}} for e in sorted(ends - {n["id"] for n in nodes})]
    started = time.perf_counter()
    client.write_batches(
        "UNWIND $rows AS row CREATE (n:RawBench {id: row.id}) SET n += row.props",
        [*nodes, *extra],
        batch_size=BATCH,
    )
    node_seconds = time.perf_counter() - started
    by_type: dict[str, list[dict[str, Any]]] = {}
    for rel in rels:
        by_type.setdefault(rel["type"], []).append(rel)
    started = time.perf_counter()
    for rel_type, rows in by_type.items():
        assert rel_type in _TYPES  # a constant from this file, never input
        client.write_batches(
            "UNWIND $rows AS row MATCH (s:RawBench {id: row.source}) "
            "MATCH (t:RawBench {id: row.target}) "
            f"CREATE (s)-[r:{rel_type}]->(t) SET r += row.props",
            rows,
            batch_size=BATCH,
        )
    rel_seconds = time.perf_counter() - started
    while client.write(
        "MATCH (n:RawBench) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS n"
    )[0]["n"]:
        pass
    client.write("DROP INDEX raw_bench_id IF EXISTS")
    return {"nodes_seconds": node_seconds, "relationships_seconds": rel_seconds}


def run(spec: str) -> dict[str, Any]:
    name, version = parse_spec(spec)
    source = extract_sdist(name, version, download_sdist(name, version))
    with connect() as client, tempfile.TemporaryDirectory() as state:
        ensure_schema(client, SchemaConfig())
        GraphWriter(client, REPO).delete_repository()
        report = build_graph(source, client, repo=REPO, state_dir=Path(state))
        nodes, rels = _read_rows(client)
        raw = _raw_write(client, nodes, rels)
        GraphWriter(client, REPO).delete_repository()
    rows = len(nodes) + len(rels)
    ours = report.seconds["write"]
    raw_seconds = raw["nodes_seconds"] + raw["relationships_seconds"]
    return {
        "package": spec,
        "nodes": len(nodes),
        "relationships": len(rels),
        "write_stage_seconds": round(ours, 2),
        "write_stage_rows_per_second": round(rows / ours),
        "raw_seconds": {k: round(v, 2) for k, v in raw.items()},
        "raw_rows_per_second": round(rows / raw_seconds),
        "ratio": round(raw_seconds / ours, 3),
        "index_stages": {k: round(v, 2) for k, v in report.seconds.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    text = json.dumps(run(args.package), indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
