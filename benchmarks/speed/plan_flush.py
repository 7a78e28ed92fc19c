"""Whether a small repository's server CPU is mostly planning (issue 56, stop 65): flask's
graph, as our CLI wrote it, written again the cheapest way (`server_floor`'s floor with the
shared indexes alone) after one of three untimed steps, in rotating order on one warm server:
nothing (the plans of its previous round still cached), `CALL db.clearQueryCaches()` (every
plan dropped), or an index made and dropped on an unused label (a schema change, as a
repository's run makes when it creates its own indexes). Each write's server CPU is read
until the server is idle again (`server_floor.settled`).

    .venv/bin/python -m benchmarks.speed.plan_flush [--inputs flask] [--rounds 6] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks.common.server import server_cpu
from benchmarks.speed.peers import _inputs, _Ours
from benchmarks.speed.runs import indexing_server
from benchmarks.speed.server_floor import REPO, settled, snapshot, write_floor
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.writer import GraphWriter


def _schema_change(client: Neo4jClient) -> None:
    client.write("CREATE INDEX plan_flush_probe IF NOT EXISTS FOR (n:PlanFlushProbe) ON (n.x)")
    client.write("CALL db.awaitIndexes(300)")
    client.write("DROP INDEX plan_flush_probe IF EXISTS")


def run(name: str, rounds: int) -> dict[str, Any]:
    source = _inputs()[name]()
    steps: dict[str, Callable[[Neo4jClient], object]] = {
        "cached": lambda _client: None,
        "plans_cleared": lambda client: client.write("CALL db.clearQueryCaches()"),
        "schema_changed": _schema_change,
    }
    found: dict[str, list[float]] = {step: [] for step in steps}
    with ExitStack() as stack:
        client, pid, env, tmp = indexing_server(stack, "plans-")
        work = tmp / source.name
        shutil.copytree(source, work)
        _Ours(client, pid, env)(work, REPO)
        shot = snapshot(client, REPO)
        order = list(steps)
        for turn in range(rounds + 1):  # the first turn warms the server, not counted
            for step in order[turn % 3 :] + order[: turn % 3]:
                # the previous write of the same statements first: its plans are cached
                GraphWriter(client, REPO).delete_repository()
                write_floor(client, shot, 0)
                settled(pid)
                GraphWriter(client, REPO).delete_repository()
                steps[step](client)
                settled(pid)
                start = server_cpu(pid)
                write_floor(client, shot, 0)
                cpu = round(server_cpu(pid) - start + settled(pid), 3)
                print(f"turn {turn + 1} {step}: {cpu}", flush=True)
                if turn:
                    found[step].append(cpu)
        GraphWriter(client, REPO).delete_repository()
    return {
        "input": name,
        "server_cpu_s": found,
        "medians": {step: statistics.median(values) for step, values in found.items()},
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", default="flask")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.inputs, args.rounds)
    print(json.dumps(result["medians"], indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
