"""Our write stage against the server's raw write rate, on the same rows, in the same run.

Issue 20 asks the write stage of a full index to reach 0.8 x the rate of plain
`UNWIND ... CREATE` in 10k batches. Load and server state move both figures, so both are
taken back to back: first a full index of the package (embeddings off) and its `write` stage
time; then the very nodes and relationships it wrote (read back from the graph: the same ids,
properties, code text) are written again under a separate label with `CREATE` in 10k batches,
relationships matched by id, twice: with one index on the id (the issue's baseline) and with
every index and constraint our `:Code` nodes carry (the server's own work on these rows:
two full-text indexes, a text index, five range indexes and the unique id); then removed.

    .venv/bin/python -m benchmarks.speed.write_rate [--package django==5.1.4] [--json out.json] \
        [--writes-alone]

Rows: nodes plus their CONTAINS / DEFINES / CALLS / IMPORTS / INHERITS / USES_TYPE
relationships (the tests stage's REACHES edges are not counted). Edges to :External nodes are
written raw to raw copies of those externals. Since the writes run behind the run
(`ingest/write_behind.py`), ours are timed on the thread that makes them (the node and edge
writes of `IndexReport.write_seconds`), plus the run's wait at its end for the full-text
indexes the server updates after each commit; the write stage's time is reported beside.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.api import connect
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.ingest.write_behind import WriteBehind

REPO = "bench-write-rate"
BATCH = 10_000
_TYPES = ["CONTAINS", "DEFINES", "CALLS", "IMPORTS", "INHERITS", "USES_TYPE"]
# the writes (`IndexReport.write_seconds`) of a fresh repository's nodes (with their CONTAINS
# and DEFINES) and edges: the rows `_read_rows` reads back
_OUR_WRITES = ("_write_nodes_then_free", "create_edges")


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


def _schema_of_code(client: Neo4jClient) -> list[str]:
    """The statements that create every index and constraint on `:Code`, for `:RawBench`
    (as the server states them: `SHOW ... YIELD createStatement`)."""
    statements: set[str] = set()
    for show in ("SHOW INDEXES", "SHOW CONSTRAINTS"):
        for row in client.read(
            f"{show} YIELD labelsOrTypes, createStatement "
            "WHERE 'Code' IN labelsOrTypes RETURN createStatement AS statement"
        ):
            statement = str(row["statement"])
            if not statement.startswith("CREATE ") or "`Code`" not in statement:
                raise RuntimeError(f"unexpected schema statement: {statement}")
            statements.add(
                statement.replace("`Code`", "`RawBench`").replace(" `code_", " `raw_bench_")
            )
    return sorted(statements)


def _raw_write(
    client: Neo4jClient,
    nodes: list[dict[str, Any]],
    rels: list[dict[str, Any]],
    *,
    same_schema: bool,
) -> dict[str, float]:
    """Write the rows raw; `same_schema`: with every index and constraint `:Code` has (else
    one range index on the id, the issue's baseline)."""
    schema = (
        _schema_of_code(client)
        if same_schema
        else ["CREATE INDEX raw_bench_id IF NOT EXISTS FOR (n:RawBench) ON (n.id)"]
    )
    for statement in schema:
        client.write(statement)
    client.write("CALL db.awaitIndexes(300)")
    ends = {r["source"] for r in rels} | {r["target"] for r in rels}
    extra = [{"id": e, "props": {}} for e in sorted(ends - {n["id"] for n in nodes})]
    started = time.perf_counter()
    client.write_batches(
        "UNWIND $rows AS row CREATE (n:RawBench {id: row.id}) SET n += row.props",
        [*nodes, *extra],
        batch_size=BATCH,
    )
    # full-text indexes the server updates after the commit (`fulltext.eventually_consistent`)
    # have their work counted too: the nodes are written once those indexes hold them
    client.write("CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()")
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
    for row in client.read(
        "SHOW CONSTRAINTS YIELD name WHERE name STARTS WITH 'raw_bench_' RETURN name"
    ):
        client.write("DROP CONSTRAINT $name IF EXISTS", {"name": row["name"]})
    for row in client.read(
        "SHOW INDEXES YIELD name WHERE name STARTS WITH 'raw_bench_' RETURN name"
    ):
        client.write("DROP INDEX $name IF EXISTS", {"name": row["name"]})
    return {"nodes_seconds": node_seconds, "relationships_seconds": rel_seconds}


@contextmanager
def _writes_alone() -> Iterator[None]:
    """Each write handed to `WriteBehind` is waited for before the run goes on: the writes
    then run with nothing of the run's own work beside them (slower as a whole, but each
    write's time is the server's and the driver's alone)."""
    submit = WriteBehind.submit

    def waited(self: WriteBehind, write: Any, *args: Any, **kwargs: Any) -> Future[None]:
        future = submit(self, write, *args, **kwargs)
        future.exception()
        return future

    WriteBehind.submit = waited  # type: ignore[method-assign]
    try:
        yield
    finally:
        WriteBehind.submit = submit  # type: ignore[method-assign]


@contextmanager
def _timed_index_waits(seconds: list[float]) -> Iterator[None]:
    """Record how long each wait of the run for its full-text indexes took (the server's index
    work deferred past the writes' commits, which their own times do not hold)."""
    wait = GraphWriter.await_text_indexes

    def timed(self: GraphWriter) -> None:
        started = time.perf_counter()
        wait(self)
        seconds.append(time.perf_counter() - started)

    GraphWriter.await_text_indexes = timed  # type: ignore[method-assign]
    try:
        yield
    finally:
        GraphWriter.await_text_indexes = wait  # type: ignore[method-assign]


def run(spec: str, writes_alone: bool = False) -> dict[str, Any]:
    name, version = parse_spec(spec)
    source = extract_sdist(name, version, download_sdist(name, version))
    with connect() as client, tempfile.TemporaryDirectory() as state:
        ensure_schema(client, SchemaConfig())
        GraphWriter(client, REPO).delete_repository()
        waits: list[float] = []
        with _writes_alone() if writes_alone else nullcontext(), _timed_index_waits(waits):
            report = build_graph(source, client, repo=REPO, state_dir=Path(state))
        nodes, rels = _read_rows(client)
        raw = _raw_write(client, nodes, rels, same_schema=False)
        raw_schema = _raw_write(client, nodes, rels, same_schema=True)
        GraphWriter(client, REPO).delete_repository()
    rows = len(nodes) + len(rels)
    stage = report.seconds["write"]
    # the writes of these very rows, timed on the thread that writes behind the run (the
    # stage's own time also holds the run's work on other rows, done while the server writes)
    missing = [kind for kind in _OUR_WRITES if kind not in report.write_seconds]
    if missing:  # a write renamed: the sum would leave it out silently
        raise SystemExit(f"no time recorded for {missing}: {sorted(report.write_seconds)}")
    # the run's wait for its full-text indexes counts as writing: their updates are the
    # server's work on these rows, done after the commits
    ours_without_wait = sum(report.write_seconds[kind] for kind in _OUR_WRITES)
    ours = ours_without_wait + sum(waits)
    raw_seconds = raw["nodes_seconds"] + raw["relationships_seconds"]
    return {
        "package": spec,
        "writes_alone": writes_alone,
        "nodes": len(nodes),
        "relationships": len(rels),
        "writes_seconds": round(ours, 2),
        "text_index_wait_seconds": round(sum(waits), 2),
        "ratio_without_the_wait": round(
            (raw["nodes_seconds"] + raw["relationships_seconds"]) / ours_without_wait, 3
        ),
        "writes_rows_per_second": round(rows / ours),
        "write_stage_seconds": round(stage, 2),
        "raw_seconds": {k: round(v, 2) for k, v in raw.items()},
        "raw_rows_per_second": round(rows / raw_seconds),
        "ratio": round(raw_seconds / ours, 3),
        # the same rows raw, with every index and constraint our nodes have (two full-text
        # indexes, a text index, five range indexes, the unique id): the server's own work
        "raw_same_schema_seconds": {k: round(v, 2) for k, v in raw_schema.items()},
        "ratio_same_schema": round(sum(raw_schema.values()) / ours, 3),
        "index_stages": {k: round(v, 2) for k, v in report.seconds.items()},
        "write_seconds_by_kind": {k: round(v, 2) for k, v in report.write_seconds.items()},
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--writes-alone",
        action="store_true",
        help="wait for each write before the run goes on (time the writes without overlap)",
    )
    args = parser.parse_args()
    text = json.dumps(run(args.package, args.writes_alone), indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
