"""The cross-repository stage of a small repository in a graph holding many others (issue 56):
what a full index of flask pays for its neighbours, query by query.

Indexes the benchmark cache's small sdists (twelve, plus Django's package with `--django`)
into one throwaway server, then indexes flask 3.0.3 `src/flask` in full `--rounds` times and
reports, per round, the `cross` stage's seconds and each query the run sent (time); then
the cross stage alone, warm, for four of them (`warm_link`). Embeddings off.

    .venv/bin/python -m benchmarks.scale.cross_fixed [--rounds 5] [--django] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.common.server import private_server
from benchmarks.oracles.packages import SRC_DIR, download_sdist, extract_sdist
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.crossrepo import CrossRepoLinker
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.ingest.pipeline import IndexOptions, build_graph

NEIGHBOURS = (
    "anyio-4.7.0",
    "attrs-24.2.0",
    "cleo-2.1.0",
    "click-8.1.7",
    "httpx-0.28.1",
    "huey-2.5.2",
    "marshmallow-3.23.1",
    "pyramid-2.0.2",
    "requests-2.32.3",
    "rich-13.9.4",
    "starlette-0.41.3",
    "structlog-24.4.0",
)
FLASK = SRC_DIR / "flask-3.0.3" / "src" / "flask"


def _label(query: str) -> str:
    """The first comment line of a query file names it well enough to group by."""
    first = next((line for line in query.splitlines() if line.strip()), "")
    return first.lstrip("/ ").strip()[:70]


@contextmanager
def _timed_queries(client: Neo4jClient) -> Iterator[dict[str, list[float]]]:
    """Every read and write `client` sends meanwhile, timed, by query."""
    seen: dict[str, list[float]] = defaultdict(list)
    read, write = client.read, client.write

    def timed_read(query: str, parameters: Mapping[str, Any] | None = None) -> Any:
        started = time.perf_counter()
        try:
            return read(query, parameters)
        finally:
            seen[_label(query)].append(time.perf_counter() - started)

    def timed_write(query: str, parameters: Mapping[str, Any] | None = None) -> Any:
        started = time.perf_counter()
        try:
            return write(query, parameters)
        finally:
            seen[_label(query)].append(time.perf_counter() - started)

    client.read = timed_read  # type: ignore[method-assign]
    client.write = timed_write  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        client.read, client.write = read, write  # type: ignore[method-assign]


def _neighbours(django: bool) -> list[tuple[str, Path]]:
    found = [(name.rsplit("-", 1)[0], SRC_DIR / name) for name in NEIGHBOURS]
    if django:
        tree = extract_sdist("django", "5.1.4", download_sdist("django", "5.1.4"))
        found.append(("django", tree / "django"))
    return [(name, path) for name, path in found if path.is_dir()]


def _server_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _warm_links(
    client: Neo4jClient, pid: int, repos: list[str], times: int = 3
) -> list[dict[str, Any]]:
    """The cross stage alone (`CrossRepoLinker.link`), again and again on a graph that no
    longer changes: its plans cached, no write stage before it. Wall, the server's CPU, and
    how many queries it sent."""
    rows = []
    for repo in repos:
        for _ in range(times):
            with _timed_queries(client) as queries:
                cpu, started = _server_cpu(pid), time.perf_counter()
                result = CrossRepoLinker(client).link(repo)
                wall = time.perf_counter() - started
            rows.append(
                {
                    "repo": repo,
                    "wall_s": round(wall, 3),
                    "server_cpu_s": round(_server_cpu(pid) - cpu, 2),
                    "queries": sum(len(t) for t in queries.values()),
                    "edges": result.edges,
                }
            )
    return rows


def run(rounds: int, django: bool) -> dict[str, Any]:
    neighbours = _neighbours(django)
    with (
        private_server() as (server, endpoint),
        Neo4jClient(endpoint) as client,
        tempfile.TemporaryDirectory() as tmp,
    ):
        ensure_schema(client, SchemaConfig())
        server_pid = server.status().pid or 0
        state = Path(tmp)
        setup = {}
        for name, path in neighbours:
            started = time.perf_counter()
            report = build_graph(path, client, repo=name, state_dir=state)
            setup[name] = {
                "seconds": round(time.perf_counter() - started, 1),
                "cross_seconds": round(report.seconds.get("cross", 0.0), 3),
                "cross_repo_edges": report.cross_repo_edges,
            }
        measured: list[dict[str, Any]] = []
        for _ in range(rounds):
            with _timed_queries(client) as queries:
                report = build_graph(
                    FLASK, client, repo="flask", state_dir=state, options=IndexOptions(full=True)
                )
            measured.append(
                {
                    "seconds": round(sum(report.seconds.values()), 3),
                    "stages": {k: round(v, 3) for k, v in report.seconds.items()},
                    "cross_repo_edges": report.cross_repo_edges,
                    "queries": {
                        label: {"n": len(times), "seconds": round(sum(times), 4)}
                        for label, times in sorted(queries.items(), key=lambda kv: -sum(kv[1]))
                        if sum(times) >= 0.005
                    },
                }
            )
        warm = _warm_links(client, server_pid, ["requests", "huey", "click", "flask"])
    cross = [m["stages"].get("cross", 0.0) for m in measured]
    return {
        "warm_link": warm,
        "neighbours": setup,
        "repositories_in_graph": len(neighbours) + 1,
        "flask_cross_seconds_median": round(statistics.median(cross), 3),
        "flask_runs": measured,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--django", action="store_true", help="Django's package as a neighbour")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    text = json.dumps(run(args.rounds, args.django), indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
