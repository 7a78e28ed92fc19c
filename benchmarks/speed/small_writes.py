"""The server's side of a small repository's full index (issue 56, stop 64): write
transactions, reads, the Neo4j server's CPU (from `/proc`) and wall per `index --full
--no-embeddings` of flask, with the writes as they were (one transaction per node kind and
per edge kind and side, REACHES deleted from a repository just created) and as they are
(`Neo4jClient.write_together`: a small repository's nodes in one transaction, its edges in
another; no REACHES delete after `create_nodes`), alternated in one process on one server.
The graph each leaves is dumped and compared: the two must be identical.

    .venv/bin/python -m benchmarks.speed.small_writes [PATH] [--rounds 6] [--json out.json]
        (default PATH: flask 3.0.3 `src/flask`; NEO4J_URI when set, else a private server)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common.graph_dump import repository_dump
from benchmarks.common.server import server_cpu
from benchmarks.speed.runs import arguments, flask_package, report
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.writer import GraphWriter

REPO = "smallwrites"
Groups = Sequence[tuple[str, Sequence[Any], Mapping[str, Any]]]


class Counts:
    """Transactions sent through the client, by kind."""

    def __init__(self) -> None:
        self.writes = 0
        self.reads = 0


def _count(counts: Counts) -> None:
    """Every managed write (`write`, `_write_in_one`) and every read counted."""
    write, together, read = Neo4jClient.write, Neo4jClient._write_in_one, Neo4jClient._read_once

    def counted_write(self: Neo4jClient, *args: Any, **kwargs: Any) -> Any:
        counts.writes += 1
        return write(self, *args, **kwargs)

    def counted_together(self: Neo4jClient, statements: Any) -> None:
        counts.writes += 1 if statements else 0
        together(self, statements)

    def counted_read(self: Neo4jClient, *args: Any, **kwargs: Any) -> Any:
        counts.reads += 1
        return read(self, *args, **kwargs)

    Neo4jClient.write = counted_write  # type: ignore[method-assign]
    Neo4jClient._write_in_one = counted_together  # type: ignore[method-assign]
    Neo4jClient._read_once = counted_read  # type: ignore[method-assign]


@contextlib.contextmanager
def as_before() -> Iterator[None]:
    """The writes as before stop 64: each group its own `write_batches`, and the REACHES
    delete sent whatever the writer created."""
    together, delete = Neo4jClient.write_together, GraphWriter.delete_all_reach_edges

    def separate(
        self: Neo4jClient,
        groups: Groups,
        *,
        batch_size: int,
        max_chars: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        return sum(
            self.write_batches(
                query, rows, batch_size=batch_size, max_chars=max_chars, extra=extra,
                progress=progress,
            )
            for query, rows, extra in groups
        )  # fmt: skip

    def always(self: GraphWriter, batch: int = 50_000) -> None:
        self.created = False
        delete(self, batch)

    Neo4jClient.write_together = separate  # type: ignore[method-assign]
    GraphWriter.delete_all_reach_edges = always  # type: ignore[method-assign]
    try:
        yield
    finally:
        Neo4jClient.write_together = together  # type: ignore[method-assign]
        GraphWriter.delete_all_reach_edges = delete  # type: ignore[method-assign]


def one_round(path: Path, pid: int, client: Neo4jClient, counts: Counts) -> dict[str, Any]:
    """Delete the repository, then one CLI `index --full --no-embeddings` in this process."""
    from graphrag_code.cli import main as cli

    GraphWriter(client, REPO).delete_repository()
    counts.writes = counts.reads = 0
    server, own, wall = server_cpu(pid), time.process_time(), time.perf_counter()
    argv = ["index", str(path), "--repo", REPO, "--full", "--no-embeddings", "--json"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli(argv)
    found = {
        "wall_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(time.process_time() - own, 3),
        "server_cpu_s": round(server_cpu(pid) - server, 3),
        "write_transactions": counts.writes,
        "reads": counts.reads,
    }
    assert code == 0, f"index exited {code}"
    return found


def rounds(path: Path, number: int, pid: int, client: Neo4jClient) -> dict[str, Any]:
    counts = Counts()
    _count(counts)
    found: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    dumps: dict[str, Any] = {}
    for turn in range(2 * number + 2):  # the first two warm the server and its query cache
        mode = "before" if turn % 2 == 0 else "after"
        context = as_before() if mode == "before" else contextlib.nullcontext()
        with context:
            result = one_round(path, pid, client, counts)
        dumps[mode] = repository_dump(client, REPO)
        if turn >= 2:
            found[mode].append(result)
        print(mode, json.dumps(result), flush=True)
    GraphWriter(client, REPO).delete_repository()
    summary = {
        mode: {
            key: statistics.median(row[key] for row in rows)
            for key in ("wall_s", "cpu_s", "server_cpu_s", "write_transactions", "reads")
        }
        for mode, rows in found.items()
    }
    return {
        "rounds": found,
        "medians": summary,
        "graph_identical": dumps["before"] == dumps["after"],
        "nodes": len(dumps["after"]["nodes"]),
        "relationships": len(dumps["after"]["rels"]),
    }


def main() -> None:
    parser = arguments(__doc__, rounds=6)
    parser.add_argument("--server-pid", type=int, help="the server's pid, with NEO4J_URI")
    args = parser.parse_args()
    from benchmarks.common.server import private_server
    from graphrag_code.graph.schema import SchemaConfig, ensure_schema
    from graphrag_code.runtime.server.endpoints import resolve_endpoint
    from graphrag_code.settings import load_settings

    path = flask_package(args.path)
    with contextlib.ExitStack() as stack:
        if os.environ.get("NEO4J_URI") and args.server_pid:
            pid, endpoint = args.server_pid, resolve_endpoint(load_settings())
        else:
            server, endpoint = stack.enter_context(private_server())
            status = server.status().pid
            assert status is not None
            pid = status
            password = endpoint.password.get_secret_value() if endpoint.password else ""
            os.environ.update(
                NEO4J_URI=endpoint.uri, NEO4J_USERNAME=endpoint.username, NEO4J_PASSWORD=password
            )
        client = stack.enter_context(Neo4jClient(endpoint))
        ensure_schema(client, SchemaConfig())
        result = {"path": str(path), **rounds(path, args.rounds, pid, client)}
    report(result, args.json)


if __name__ == "__main__":
    main()
