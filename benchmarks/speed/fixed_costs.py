"""The costs of a small repository's `index` that do not grow with it (issue 56): one
`graphrag-code index PATH --full --no-embeddings` run in this process, cut into phases
(the schema check, each stage of `build_graph`, the server's writes
after them), each with this process's CPU, the Neo4j server's CPU (from `/proc`) and the
queries it sent; then `ensure_schema` alone, its full check and its fast path alternated;
and the CPU a fresh interpreter spends importing what `index` needs.

A private throwaway server; the repository is deleted before each round, as in
`benchmarks.speed.peers`.

    .venv/bin/python -m benchmarks.speed.fixed_costs [PATH] [--rounds 3] [--json out.json]
        (default PATH: flask 3.0.3 `src/flask`)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.common.server import server_cpu
from benchmarks.speed.runs import arguments, flask_package

if TYPE_CHECKING:
    from graphrag_code.runtime.endpoint import Neo4jEndpoint

IMPORTS = "graphrag_code.cli.main", "graphrag_code.api"  # what `index` imports


def import_cpu(rounds: int) -> float:
    """CPU seconds a fresh interpreter spends importing what `index` needs (the least of
    `rounds`; interpreter start-up itself not counted)."""
    probe = (
        "import time; t = time.process_time(); "
        + "; ".join(f"import {name}" for name in IMPORTS)
        + "; print(time.process_time() - t)"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                             check=True).stdout)
        for _ in range(rounds)
    ]  # fmt: skip
    return round(min(runs), 3)


class Phases:
    """Marks between phases (wall, own CPU, server CPU) and the queries sent in each."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.current = "outside"
        self.totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        self.queries: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
        self._last = self._now()

    def _now(self) -> tuple[float, float, float]:
        return time.perf_counter(), time.process_time(), server_cpu(self.pid)

    def enter(self, name: str) -> str:
        """Charge what ran since the last mark to the current phase; `name` runs next."""
        now = self._now()
        total = self.totals[self.current]
        for i in range(3):
            total[i] += now[i] - self._last[i]
        self._last, previous, self.current = now, self.current, name
        return previous

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        previous = self.enter(name)
        try:
            yield
        finally:
            self.enter(previous)


def _wrap(owner: Any, attribute: str, around: Callable[[Callable[..., Any]], Any]) -> None:
    setattr(owner, attribute, around(getattr(owner, attribute)))


def _instrument(phases: Phases) -> None:
    """Phases around the functions `index` runs; every query counted in its phase."""
    from graphrag_code import api
    from graphrag_code.graph.client import Neo4jClient
    from graphrag_code.graph.crossrepo import CrossRepoLinker
    from graphrag_code.ingest import pipeline

    def in_phase(name: str) -> Callable[[Callable[..., Any]], Any]:
        def around(function: Callable[..., Any]) -> Callable[..., Any]:
            def run(*args: Any, **kwargs: Any) -> Any:
                with phases.phase(name):
                    return function(*args, **kwargs)

            return run

        return around

    def counted(function: Callable[..., Any]) -> Callable[..., Any]:
        def run(self: Neo4jClient, query: str, *args: Any, **kwargs: Any) -> Any:
            before = server_cpu(phases.pid)
            try:
                return function(self, query, *args, **kwargs)
            finally:
                row = phases.queries[(phases.current, " ".join(query.split())[:100])]
                row[0] += 1
                row[1] += server_cpu(phases.pid) - before

        return run

    _wrap(Neo4jClient, "_read_once", counted)
    _wrap(Neo4jClient, "write", counted)
    for name in ("_ensure_schema_for", "bound_root", "repository_lock", "_embedding_left"):
        _wrap(api, name, in_phase(name.strip("_")))
    for name in ("_walk", "_parse", "lookup_tables", "_link", "_publish", "_write"):
        _wrap(pipeline, name, in_phase(name.strip("_")))
    for name in ("update_tests", "next_state", "_save_early"):
        _wrap(pipeline, name, in_phase("tests and state"))
    _wrap(CrossRepoLinker, "link", in_phase("cross link"))


def index_rounds(
    path: Path, rounds: int, pid: int, endpoint: Neo4jEndpoint, env: dict[str, str]
) -> dict[str, Any]:
    """`rounds` runs of the CLI's `index` in this process, phase by phase."""
    from graphrag_code.cli import main as cli
    from graphrag_code.graph.client import Neo4jClient
    from graphrag_code.graph.writer import GraphWriter

    os.environ.update(env)
    phases = Phases(pid)
    _instrument(phases)
    per_round = []
    with Neo4jClient(endpoint) as client:
        for _ in range(rounds):
            GraphWriter(client, "fixed").delete_repository()
            phases.totals.clear()
            phases.queries.clear()
            phases.enter("cli and build_graph, outside the phases")
            argv = ["index", str(path), "--repo", "fixed", "--full", "--no-embeddings", "--json"]
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                cli(argv)
            phases.enter("outside")
            per_round.append(
                {
                    "phases": {k: [round(x, 3) for x in v] for k, v in phases.totals.items()},
                    "queries": {f"{p}: {q}": v for (p, q), v in phases.queries.items()},
                }
            )
    return {"rounds": per_round}


def schema_ab(rounds: int, pid: int, endpoint: Neo4jEndpoint) -> dict[str, Any]:
    """`ensure_schema` as `index` calls it: the full check and the fast path, alternated."""
    from graphrag_code.api import schema_config
    from graphrag_code.embedding import make_embedder
    from graphrag_code.graph import schema
    from graphrag_code.graph.client import Neo4jClient
    from graphrag_code.settings import load_settings

    settings = load_settings()
    embedder = make_embedder(settings)
    config = schema_config(settings, dimensions=embedder.dimensions, model=embedder.name)
    fast = schema.schema_in_place
    found: dict[str, list[tuple[float, float, float]]] = {"full": [], "fast": []}
    with Neo4jClient(endpoint) as client:
        for number in range(2 * rounds):
            mode = "full" if number % 2 == 0 else "fast"
            schema.schema_in_place = fast if mode == "fast" else (lambda *_a, **_k: (False, False))
            server, own, wall = server_cpu(pid), time.process_time(), time.perf_counter()
            schema.ensure_schema(client, config, repo="fixed")
            found[mode].append(
                (time.perf_counter() - wall, time.process_time() - own, server_cpu(pid) - server)
            )
    schema.schema_in_place = fast
    return {
        mode: {
            key: round(statistics.median(row[i] for row in rows[1:]), 4)
            for i, key in enumerate(("wall_s", "cpu_s", "server_cpu_s"))
        }
        for mode, rows in found.items()
    }


def main() -> None:
    parser = arguments(__doc__, rounds=3)
    args = parser.parse_args()
    from benchmarks.common.server import endpoint_env, private_server
    from graphrag_code.graph.client import Neo4jClient
    from graphrag_code.graph.schema import SchemaConfig, ensure_schema

    path = flask_package(args.path)
    with private_server() as (server, endpoint):
        pid = server.status().pid
        assert pid is not None
        env = endpoint_env(endpoint)
        with Neo4jClient(endpoint) as client:
            ensure_schema(client, SchemaConfig())
        result: dict[str, Any] = {
            "path": str(path),
            "import_cpu_s": import_cpu(5),
            "index": index_rounds(path, args.rounds, pid, endpoint, env),
            "schema": schema_ab(max(args.rounds, 10), pid, endpoint),
        }
    for number, one in enumerate(result["index"]["rounds"], 1):
        print(f"round {number}: phase wall / CPU / server CPU (s)")
        for name, (wall, cpu, server) in one["phases"].items():
            print(f"  {name:40s} {wall:7.3f} {cpu:7.3f} {server:7.3f}")
    print("importing the package, CPU s:", result["import_cpu_s"])
    print("ensure_schema, medians:", json.dumps(result["schema"]))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
