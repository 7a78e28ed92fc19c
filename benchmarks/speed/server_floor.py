"""The least CPU the Neo4j server spends to hold the graph we write (issue 56, stop 65).

Each input is indexed once by our CLI (`index --full --no-embeddings`, as `peers.py` runs it)
and the graph it wrote is read back: the repository's nodes with their labels and properties,
the `:Repository` node, the `:External` nodes its edges reach, every relationship with its
properties, and the repository's own indexes (`SHOW INDEXES … createStatement`). Then, in
alternated rounds on one warm server:

- **ours**: the CLI again, the repository deleted first (not timed), as a `peers` round;
- **floor**: the repository deleted (not timed), then the very same graph written the cheapest
  way the server offers through the driver: the repository's own indexes created as ours
  makes them (`ddl`), then every node and relationship with plain `UNWIND … CREATE … SET n =
  row` in one transaction (node statements by label set, relationships by type, endpoints
  found through the unique constraints), no reads, no checks, and the wait for the full-text
  indexes (`data`); its graph is dumped once and compared with ours';
- **bare** (with `--bare`): the same rows under labels no index of ours covers (`Bare_Code`
  …, with one range index each for the endpoints' lookups): the data without search's indexes;
- **shared** (with `--shared`): the floor without the repository's own indexes (its nodes keep
  their labels; the shared full-text, text and range indexes alone);
- **crg** (with `--crg`): code-review-graph as `peers.py` runs it, for its whole CPU.

The server's CPU is read from `/proc/<pid>/stat` before and after each part (as `peers.py`);
with `--settle`, after each part until the server is idle again, that tail counted with the
part (a write leaves work running after its commit, which otherwise lands on the next part).

    .venv/bin/python -m benchmarks.speed.server_floor [--inputs flask,django] [--rounds 5]
        [--warm 2] [--crg] [--bare] [--shared] [--settle] [--batch 0]
        [--json benchmarks/results/server_floor_stop65.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.common.graph_dump import repository_dump
from benchmarks.common.server import server_cpu
from benchmarks.speed.peers import _CodeReviewGraph, _inputs, _Ours
from benchmarks.speed.runs import indexing_server
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.scoping import repo_label
from graphrag_code.graph.writer import GraphWriter

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
REPO = "peers"  # the name `peers.py` indexes under (its label, its indexes' names)


@dataclass
class Snapshot:
    """The graph one index wrote, as rows to write again."""

    repository: dict[str, Any]
    nodes: dict[tuple[str, ...], list[dict[str, Any]]]  # by label set
    externals: list[dict[str, Any]]
    rels: dict[tuple[str, str], list[dict[str, Any]]]  # by (type, target: Code / External)
    contains: list[dict[str, Any]]  # :Repository -[:CONTAINS]-> module ids
    indexes: list[str]  # the repository's own indexes' create statements
    counts: dict[str, int] = field(default_factory=dict)


def snapshot(client: Neo4jClient, repo: str) -> Snapshot:
    """Everything `repo`'s index left in the graph, read back."""
    nodes: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in client.read(
        "MATCH (n:Code {repo: $repo}) RETURN labels(n) AS labels, properties(n) AS props",
        {"repo": repo},
    ):
        nodes.setdefault(tuple(sorted(row["labels"])), []).append(row["props"])
    externals = client.read(
        "MATCH (:Code {repo: $repo})-->(e:External) WITH DISTINCT e "
        "RETURN labels(e) AS labels, properties(e) AS props",
        {"repo": repo},
    )
    if any(row["labels"] != ["External"] for row in externals):
        raise SystemExit("an external with labels other than :External: not copied here")
    rels: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in client.read(
        "MATCH (s:Code {repo: $repo})-[r]->(t) RETURN s.id AS s, type(r) AS type, "
        "t:External AS external, coalesce(t.id, t.qualified_name) AS t, properties(r) AS p",
        {"repo": repo},
    ):
        key = (row["type"], "External" if row["external"] else "Code")
        rels.setdefault(key, []).append({"s": row["s"], "t": row["t"], "p": row["p"]})
    contains = client.read(
        "MATCH (:Repository {name: $repo})-[r:CONTAINS]->(m:Code) "
        "RETURN m.id AS t, properties(r) AS p",
        {"repo": repo},
    )
    (repository,) = client.read(
        "MATCH (r:Repository {name: $repo}) RETURN properties(r) AS props", {"repo": repo}
    )
    indexes = [
        str(row["statement"])
        for row in client.read(
            "SHOW INDEXES YIELD labelsOrTypes, createStatement "
            "WHERE labelsOrTypes = [$label] RETURN createStatement AS statement",
            {"label": repo_label(repo)},
        )
    ]
    counts = {
        "nodes": sum(len(rows) for rows in nodes.values()),
        "externals": len(externals),
        "relationships": sum(len(rows) for rows in rels.values()) + len(contains),
        "own_indexes": len(indexes),
    }
    return Snapshot(
        repository["props"],
        nodes,
        [row["props"] for row in externals],
        rels,
        contains,
        indexes,
        counts,
    )


def _quoted(name: str) -> str:
    """A label or type read from the graph, backtick-quoted for a query's text."""
    if not _IDENTIFIER.fullmatch(name):
        raise SystemExit(f"unexpected label or type {name!r}")
    return f"`{name}`"


def _statements(shot: Snapshot, prefix: str = "") -> list[tuple[str, list[dict[str, Any]]]]:
    """The plain `UNWIND … CREATE` statements that write `shot`, nodes before edges; every
    label with `prefix` (`BARE`: labels no index covers but the three lookups' own)."""
    repository, external, code = (f"{prefix}{name}" for name in ("Repository", "External", "Code"))
    out: list[tuple[str, list[dict[str, Any]]]] = [
        (f"UNWIND $rows AS row CREATE (r:{repository}) SET r = row", [shot.repository]),
        (f"UNWIND $rows AS row CREATE (e:{external}) SET e = row", shot.externals),
    ]
    for labels, rows in sorted(shot.nodes.items()):
        spelled = ":".join(_quoted(prefix + label) for label in labels)
        out.append((f"UNWIND $rows AS row CREATE (n:{spelled}) SET n = row", rows))
    out.append(
        (
            f"UNWIND $rows AS row MATCH (r:{repository} {{name: $repo}}) "
            f"MATCH (m:{code} {{id: row.t}}) CREATE (r)-[c:CONTAINS]->(m) SET c = row.p",
            shot.contains,
        )
    )
    for (kind, target), rows in sorted(shot.rels.items()):
        end = (
            f"(t:{code} {{id: row.t}})"
            if target == "Code"
            else f"(t:{external} {{qualified_name: row.t}})"
        )
        out.append(
            (
                f"UNWIND $rows AS row MATCH (s:{code} {{id: row.s}}) MATCH {end} "
                f"CREATE (s)-[r:{_quoted(kind)}]->(t) SET r = row.p",
                rows,
            )
        )
    return out


def write_floor(client: Neo4jClient, shot: Snapshot, batch: int, prefix: str = "") -> None:
    """`shot`'s data in one write transaction (`batch` 0), else in transactions of at most
    `batch` rows of one statement each; then the wait for the full-text indexes."""
    statements = _statements(shot, prefix)
    if batch <= 0:
        client.write_statements(
            [(query, {"rows": rows, "repo": REPO}) for query, rows in statements if rows]
        )
    else:
        for query, rows in statements:
            client.write_batches(query, rows, batch_size=batch, extra={"repo": REPO})
    client.write("CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()")


class _Floor:
    """The floor round: the repository deleted (not timed), its own indexes made, its graph
    written plain; the server's CPU for each part."""

    def __init__(
        self, client: Neo4jClient, pid: int, shot: Snapshot, batch: int, own: bool = True
    ) -> None:
        self.client, self.pid, self.shot, self.batch = client, pid, shot, batch
        self.indexes = shot.indexes if own else []  # without: the shared indexes alone

    def __call__(self) -> dict[str, float]:
        GraphWriter(self.client, REPO).delete_repository()
        own, wall = time.process_time(), time.perf_counter()
        start = server_cpu(self.pid)
        for statement in self.indexes:
            self.client.write(statement)
        self.client.write("CALL db.awaitIndexes(300)")
        ddl = server_cpu(self.pid)
        write_floor(self.client, self.shot, self.batch)
        end = server_cpu(self.pid)
        return {
            "server_cpu_s": round(end - start, 3),
            "server_ddl_s": round(ddl - start, 3),
            "server_data_s": round(end - ddl, 3),
            "driver_cpu_s": round(time.process_time() - own, 3),
            "wall_s": round(time.perf_counter() - wall, 3),
        }


BARE = "Bare_"
# the lookups the relationships' endpoints need, on the bare labels (made once, not timed)
_BARE_INDEXES = (
    "CREATE INDEX bare_code_id IF NOT EXISTS FOR (n:Bare_Code) ON (n.id)",
    "CREATE INDEX bare_external IF NOT EXISTS FOR (n:Bare_External) ON (n.qualified_name)",
    "CREATE INDEX bare_repository IF NOT EXISTS FOR (n:Bare_Repository) ON (n.name)",
)


class _Bare:
    """The same graph under labels no index of ours covers (`Bare_` before each): what the
    server spends on the data alone, without the full-text, text and range indexes search
    needs. Its nodes are deleted before each round (not timed)."""

    def __init__(self, client: Neo4jClient, pid: int, shot: Snapshot, batch: int) -> None:
        self.client, self.pid, self.shot, self.batch = client, pid, shot, batch
        for statement in _BARE_INDEXES:
            client.write(statement)
        client.write("CALL db.awaitIndexes(300)")

    def clear(self) -> None:
        while self.client.write(
            "MATCH (n) WHERE n:Bare_Code OR n:Bare_External OR n:Bare_Repository "
            "WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n"
        )[0]["n"]:
            pass

    def __call__(self) -> dict[str, float]:
        self.clear()
        own, wall = time.process_time(), time.perf_counter()
        start = server_cpu(self.pid)
        write_floor(self.client, self.shot, self.batch, BARE)
        end = server_cpu(self.pid)
        found = {
            "server_cpu_s": round(end - start, 3),
            "driver_cpu_s": round(time.process_time() - own, 3),
            "wall_s": round(time.perf_counter() - wall, 3),
        }
        self.clear()  # the others' rounds see the graph as the floor's do
        return found


def settled(pid: int, *, window: float = 0.5, idle: float = 0.02, most: float = 20.0) -> float:
    """The server's CPU from now until it is idle (under `idle` s of CPU in `window` s): the
    work a write leaves running after its commit (index merges, collection) counted with it,
    not with whatever runs next on the server."""
    start = previous = server_cpu(pid)
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        time.sleep(window)
        now = server_cpu(pid)
        if now - previous < idle:
            break
        previous = now
    return round(previous - start, 3)


def _median(rows: list[dict[str, float]], key: str) -> float:
    return round(statistics.median(row[key] for row in rows), 3)


def _summary(rounds: list[dict[str, dict[str, float]]]) -> dict[str, Any]:
    """Medians per tool and part, and the floor against ours and crg within each round."""
    out: dict[str, Any] = {
        tool: {key: _median([r[tool] for r in rounds], key) for key in rounds[0][tool]}
        for tool in rounds[0]
    }
    out["ours_server_over_floor"] = _median(
        [{"x": r["ours"]["server_cpu_s"] / r["floor"]["server_cpu_s"]} for r in rounds], "x"
    )
    out["ours_server_minus_floor_s"] = _median(
        [{"x": r["ours"]["server_cpu_s"] - r["floor"]["server_cpu_s"]} for r in rounds], "x"
    )
    if "crg" in rounds[0]:
        out["floor_server_over_crg_cpu"] = _median(
            [{"x": r["floor"]["server_cpu_s"] / r["crg"]["cpu_s"]} for r in rounds], "x"
        )
        out["floor_data_over_crg_cpu"] = _median(
            [{"x": r["floor"]["server_data_s"] / r["crg"]["cpu_s"]} for r in rounds], "x"
        )
    return out


def run(
    inputs: list[str],
    rounds: int,
    warm: int,
    crg: bool,
    batch: int,
    out: Path | None,
    bare: bool = False,
    shared: bool = False,
    settle: bool = False,
) -> dict[str, Any]:
    sources = {name: make() for name, make in _inputs().items() if name in inputs}
    result: dict[str, Any] = {"inputs": {}, "load_average": []}
    with ExitStack() as stack:
        client, pid, env, tmp = indexing_server(stack, "floor-")
        ours = _Ours(client, pid, env)
        peer = _CodeReviewGraph() if crg else None
        for name, source in sources.items():
            work = tmp / name / source.name
            shutil.copytree(source, work)
            ours(work, REPO)
            shot = snapshot(client, REPO)
            wanted = repository_dump(client, REPO)
            floor = _Floor(client, pid, shot, batch)
            tools: dict[str, Callable[[], dict[str, float]]] = {
                "ours": partial(_ours_row, ours, work),
                "floor": floor,
            }
            if peer is not None:
                tools["crg"] = partial(_crg_row, peer, work)
            bare_round = _Bare(client, pid, shot, batch) if bare else None
            if bare_round is not None:
                tools["bare"] = bare_round
            if shared:
                tools["shared"] = _Floor(client, pid, shot, batch, own=False)
            rows: list[dict[str, dict[str, float]]] = []
            identical = None
            for turn in range(warm + rounds):
                order = list(tools) if turn % 2 == 0 else list(reversed(tools))
                row = {}
                for tool in order:
                    row[tool] = tools[tool]()
                    if settle:
                        tail = settled(pid)
                        row[tool]["server_tail_s"] = tail
                        if "server_cpu_s" in row[tool]:
                            row[tool]["server_cpu_s"] = round(row[tool]["server_cpu_s"] + tail, 3)
                    if tool == "floor" and identical is None:  # read after its timing
                        identical = repository_dump(client, REPO) == wanted
                print(f"{name} turn {turn + 1}: {json.dumps(row)}", file=sys.stderr, flush=True)
                if turn >= warm:
                    rows.append(row)
                result["load_average"].append(os.getloadavg())
                result["inputs"][name] = {
                    "counts": shot.counts,
                    "floor_graph_identical_to_ours": identical,
                    "summary": _summary(rows) if rows else {},
                    "rounds": rows,
                }
                if out is not None:
                    out.write_text(json.dumps(result, indent=2) + "\n")
            GraphWriter(client, REPO).delete_repository()
            if bare_round is not None:
                bare_round.clear()
    return result


def _ours_row(ours: _Ours, work: Path) -> dict[str, float]:
    measured = ours(work, REPO)
    return {
        "server_cpu_s": measured.server_cpu,
        "indexer_cpu_s": round(measured.user + measured.system, 3),
        "cpu_s": round(measured.cpu, 3),
        "wall_s": measured.wall,
    }


def _crg_row(peer: _CodeReviewGraph, work: Path) -> dict[str, float]:
    measured = peer(work, REPO)
    return {"cpu_s": round(measured.cpu, 3), "wall_s": measured.wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", default="flask,django", help="of " + ", ".join(_inputs()))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm", type=int, default=2, help="rounds first, not counted")
    parser.add_argument("--crg", action="store_true", help="code-review-graph too")
    parser.add_argument("--bare", action="store_true", help="the graph without our indexes too")
    parser.add_argument(
        "--shared", action="store_true", help="the floor without the repository's own indexes"
    )
    parser.add_argument(
        "--settle", action="store_true", help="each part's CPU until the server is idle again"
    )
    parser.add_argument("--batch", type=int, default=0, help="rows a transaction; 0: one")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    wanted = [name.strip() for name in args.inputs.split(",") if name.strip()]
    unknown = sorted(set(wanted) - set(_inputs()))
    if unknown:
        parser.error(f"unknown inputs {unknown}; choose from {sorted(_inputs())}")
    result = run(
        wanted,
        args.rounds,
        args.warm,
        args.crg,
        args.batch,
        args.json,
        args.bare,
        args.shared,
        args.settle,
    )
    print(json.dumps({k: v["summary"] for k, v in result["inputs"].items()}, indent=2))


if __name__ == "__main__":
    main()
