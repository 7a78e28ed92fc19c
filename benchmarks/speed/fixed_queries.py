"""A small repository's fixed queries, as before stop 65 and as now (issue 56): write
transactions, reads, the Neo4j server's CPU (from `/proc`) and this process's per `index
--full --no-embeddings` of flask into a warm server, the repository deleted before each round
(as `peers.py` does), the two forms alternated in one process, the graph each leaves dumped
and compared (every node, relationship and property, and the repository node's keys).

Before: the schema step of a repository new to the graph read which of its own indexes exist
(two reads of the full-text indexes, one of its vector index) after the read of every index,
and made its two full-text indexes in two transactions; the run's start and what it
publishes were two transactions, and so were the wait for the full-text indexes and the
run's end; `build_graph` read the repository's binding again after `index_repository` had.
Now: the first read answers the three, each pair is one transaction
(`Neo4jClient.write_statements`), and the binding is read once.

    .venv/bin/python -m benchmarks.speed.fixed_queries [PATH] [--rounds 10] [--json out.json]
        (default PATH: flask 3.0.3 `src/flask`; a private server)
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.common.graph_dump import repository_dump
from benchmarks.speed.runs import arguments, flask_package, report
from benchmarks.speed.small_writes import REPO, Counts, _count, one_round
from graphrag_code.graph import schema
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest import pipeline
from graphrag_code.ingest.pipeline import IndexOptions

WARM = 4
KEYS = ("wall_s", "cpu_s", "server_cpu_s", "write_transactions", "reads")


@contextlib.contextmanager
def as_before() -> Iterator[None]:
    """Each statement its own transaction, and the repository's indexes read again."""
    together = Neo4jClient.write_statements
    text, vector = schema.ensure_repository_text_index, schema.ensure_repository_vector_index

    def apart(self: Neo4jClient, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        for query, parameters in statements:
            self.write(query, parameters)

    def text_read(client: Neo4jClient, config: Any, repo: str, **_: Any) -> None:
        text(client, config, repo)

    def vector_read(client: Neo4jClient, config: Any, repo: str, **_: Any) -> None:
        vector(client, config, repo)

    def created_apart(client: Neo4jClient, statements: list[tuple[str, dict[str, Any]]]) -> None:
        for statement, parameters in statements:
            schema._create(client, statement, parameters)

    def read_root_again(*args: Any, options: IndexOptions, **kwargs: Any) -> Any:
        return build(*args, options=replace(options, root_checked=False), **kwargs)

    create, build = schema._create_together, pipeline.build_graph
    Neo4jClient.write_statements = apart  # type: ignore[method-assign]
    schema.ensure_repository_text_index = text_read
    schema.ensure_repository_vector_index = vector_read
    schema._create_together = created_apart
    pipeline.build_graph = read_root_again  # type: ignore[assignment]
    try:
        yield
    finally:
        Neo4jClient.write_statements = together  # type: ignore[method-assign]
        schema.ensure_repository_text_index = text
        schema.ensure_repository_vector_index = vector
        schema._create_together = create
        pipeline.build_graph = build


def _graph(client: Neo4jClient) -> dict[str, Any]:
    """The repository's dump and its node's property keys (its values hold times and the
    run's token)."""
    keys = client.read("MATCH (r:Repository {name: $repo}) RETURN keys(r) AS keys", {"repo": REPO})
    return {**repository_dump(client, REPO), "repository_keys": sorted(keys[0]["keys"])}


def rounds(path: Path, number: int, pid: int, client: Neo4jClient) -> dict[str, Any]:
    counts = Counts()
    _count(counts)
    found: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    dumps: dict[str, Any] = {}
    # the first four warm the server and its query cache; then before, after, after, before
    # (the server's CPU falls round by round as its JVM warms: ABBA, not ABAB)
    for turn in range(2 * number + WARM):
        mode = ("before", "after", "after", "before")[turn % 4]
        with as_before() if mode == "before" else contextlib.nullcontext():
            result = one_round(path, pid, client, counts)
        dumps[mode] = _graph(client)
        if turn >= WARM:
            found[mode].append(result)
        print(mode, json.dumps(result), flush=True)
    GraphWriter(client, REPO).delete_repository()
    return {
        "rounds": found,
        "medians": {
            mode: {key: statistics.median(row[key] for row in rows) for key in KEYS}
            for mode, rows in found.items()
        },
        "server_cpu_after_over_before_same_pair": statistics.median(
            after["server_cpu_s"] / before["server_cpu_s"]
            for before, after in zip(found["before"], found["after"], strict=False)
        ),
        "graph_identical": dumps["before"] == dumps["after"],
        "nodes": len(dumps["after"]["nodes"]),
        "relationships": len(dumps["after"]["rels"]),
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = arguments(__doc__, rounds=10)
    args = parser.parse_args()
    from benchmarks.common.server import endpoint_env, private_server

    path = flask_package(args.path)
    with private_server() as (server, endpoint), Neo4jClient(endpoint) as client:
        pid = server.status().pid
        assert pid is not None
        os.environ.update(endpoint_env(endpoint))
        schema.ensure_schema(client, schema.SchemaConfig())
        result = {"path": str(path), **rounds(path, args.rounds, pid, client)}
    report(result, args.json)


if __name__ == "__main__":
    main()
