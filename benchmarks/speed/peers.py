"""Index speed side by side with the peers (issue 56): ours against code-review-graph (and,
with `--cgc`, CodeGraphContext) on the same inputs, in interleaved rounds, embeddings off, a
full index each round.

Each peer is pinned and installed once in its own venv under `benchmarks/cache/peers/` (never
in the project's venv). Each command runs under `/usr/bin/time -v` (wall, user + system CPU,
peak RSS); ours indexes into a private throwaway Neo4j server whose CPU is read from
`/proc/<pid>/stat` before and after, and counted with ours. On a loaded machine (2 cores
shared) wall time mostly measures the load: compare CPU seconds, and ratios within one round.

    .venv/bin/python -m benchmarks.speed.peers [--rounds 5] [--inputs flask,django,django-tree]
        [--cgc] [--json benchmarks/results/peers.json]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common.server import endpoint_env, private_server, server_cpu
from benchmarks.oracles.packages import CACHE_DIR, SRC_DIR, download_sdist, extract_sdist
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter

PEERS_DIR = CACHE_DIR / "peers"
CRG = ("code-review-graph", "2.3.9", "crg")  # the version issue 56's table used
CGC = ("codegraphcontext", "0.6.13", "cgc")
DJANGO = ("django", "5.1.4")


@dataclass(frozen=True)
class Measured:
    """One command under `/usr/bin/time -v` (and, for ours, the server's CPU meanwhile)."""

    wall: float
    user: float
    system: float
    rss_mb: float
    server_cpu: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)

    @property
    def cpu(self) -> float:
        """CPU seconds of the command and the server it wrote to."""
        return self.user + self.system + self.server_cpu


def _inputs() -> dict[str, Callable[[], Path]]:
    def django() -> Path:
        return extract_sdist(*DJANGO, download_sdist(*DJANGO))

    return {
        "flask": lambda: SRC_DIR / "flask-3.0.3" / "src" / "flask",
        "django": lambda: django() / "django",
        "django-tree": django,
    }


def _venv(name: str, version: str, short: str) -> Path:
    """The `bin/` of a venv holding `name==version` alone (made once)."""
    home = PEERS_DIR / f"{short}-{version}"
    done = home / ".installed"
    if not done.is_file():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(home)], check=True)
        pip = [str(home / "bin" / "python"), "-m", "pip", "install", "-q"]
        subprocess.run([*pip, f"{name}=={version}"], check=True)
        done.write_text(f"{name}=={version}\n")
    return home / "bin"


_TIME_FIELDS = {
    "wall": re.compile(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)"),
    "user": re.compile(r"User time \(seconds\): (\S+)"),
    "system": re.compile(r"System time \(seconds\): (\S+)"),
    "rss_kb": re.compile(r"Maximum resident set size \(kbytes\): (\d+)"),
}


def _clock(text: str) -> float:
    seconds = 0.0
    for part in text.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


def _timed(command: Sequence[str], env: dict[str, str], cwd: Path) -> tuple[Measured, str]:
    """Run `command` under `/usr/bin/time -v`; its figures and its output. `cwd` must lie
    outside the input: flask's `typing.py` in the working folder broke code-review-graph's
    parser imports (every file skipped, 0 nodes)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        done = subprocess.run(
            ["/usr/bin/time", "-v", "-o", report.name, *command],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
        )
        text = Path(report.name).read_text()
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stderr[-2000:]}")
    found = {k: m.group(1) for k, rx in _TIME_FIELDS.items() if (m := rx.search(text))}
    measured = Measured(
        wall=_clock(found["wall"]),
        user=float(found["user"]),
        system=float(found["system"]),
        rss_mb=round(int(found["rss_kb"]) / 1024, 1),
    )
    return measured, done.stdout + done.stderr


class _Ours:
    """`graphrag-code index --no-embeddings --full` into a private server, the repository
    deleted before each round (not timed)."""

    def __init__(self, client: Neo4jClient, pid: int, env: dict[str, str]) -> None:
        self.client, self.pid, self.env = client, pid, env
        self.command = [str(Path(sys.executable).parent / "graphrag-code")]

    def __call__(self, work: Path, repo: str) -> Measured:
        GraphWriter(self.client, repo).delete_repository()
        before = server_cpu(self.pid)
        measured, stdout = _timed(
            [*self.command, "index", str(work), "--repo", repo, "--no-embeddings", "--full",
             "--json"],
            self.env,
            work.parent,
        )  # fmt: skip
        server = server_cpu(self.pid) - before
        # the JSON report, then the note `--no-embeddings` prints on stderr
        report, _end = json.JSONDecoder().raw_decode(stdout[stdout.index("{") :])
        stages = {k: round(float(v), 2) for k, v in report.get("seconds", {}).items()}
        stages["edges"] = float(sum(report.get("edges", {}).values()))
        return Measured(**{**asdict(measured), "server_cpu": round(server, 2), "stages": stages})


class _CodeReviewGraph:
    """`code-review-graph build --repo PATH` on a fresh database each round (it wants an
    empty `.code-review-graph/` folder in the root)."""

    def __init__(self) -> None:
        self.command = [str(_venv(*CRG) / "code-review-graph")]

    def __call__(self, work: Path, repo: str) -> Measured:
        store = work / ".code-review-graph"
        shutil.rmtree(store, ignore_errors=True)
        store.mkdir()
        measured, output = _timed(
            [*self.command, "build", "--repo", str(work)], _quiet_env(), work.parent
        )
        shutil.rmtree(store, ignore_errors=True)
        built = re.search(r"Full build: (\d+) files, (\d+) nodes, (\d+) edges", output)
        if built is None or built.group(2) == "0":
            raise RuntimeError(f"code-review-graph built nothing: {output[-2000:]}")
        counts = {"files": float(built.group(1)), "edges": float(built.group(3))}
        return Measured(**{**asdict(measured), "stages": counts})


class _CodeGraphContext:
    """`cgc index PATH` (its embedded database, a fresh one each round). Minutes on Django."""

    def __init__(self) -> None:
        self.command = [str(_venv(*CGC) / "cgc")]

    def __call__(self, work: Path, repo: str) -> Measured:
        home = work.parent / "cgc-home"
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir()
        measured, _ = _timed(
            [*self.command, "index", str(work)], {**_quiet_env(), "HOME": str(home)}, work.parent
        )
        return measured


def _quiet_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "PYTHONPATH"))}


def _summary(rounds: list[dict[str, Measured]]) -> dict[str, Any]:
    """Medians (min–max) per tool, and ours / crg within each round, for wall and CPU."""

    def spread(values: list[float]) -> dict[str, float]:
        return {
            "median": round(statistics.median(values), 2),
            "min": round(min(values), 2),
            "max": round(max(values), 2),
        }

    tools = sorted({tool for row in rounds for tool in row})
    out: dict[str, Any] = {
        tool: {
            "wall_s": spread([r[tool].wall for r in rounds if tool in r]),
            "cpu_s": spread([r[tool].cpu for r in rounds if tool in r]),
            "rss_mb": spread([r[tool].rss_mb for r in rounds if tool in r]),
        }
        for tool in tools
    }
    if "ours" in out:
        out["ours"]["server_cpu_s"] = spread([r["ours"].server_cpu for r in rounds])
        out["ours"]["indexer_cpu_s"] = spread([r["ours"].user + r["ours"].system for r in rounds])
    pairs = [r for r in rounds if {"ours", "crg"} <= set(r)]
    if pairs:
        wall = [r["ours"].wall / r["crg"].wall for r in pairs]
        cpu = [r["ours"].cpu / r["crg"].cpu for r in pairs]
        out["ours_over_crg"] = {
            "wall": spread(wall),
            "cpu_with_server": spread(cpu),
            "cpu_indexer_only": spread(
                [(r["ours"].user + r["ours"].system) / r["crg"].cpu for r in pairs]
            ),
            "slower_wall_in": f"{sum(w > 1 for w in wall)} of {len(wall)}",
            "slower_cpu_in": f"{sum(c > 1 for c in cpu)} of {len(cpu)}",
        }
    return out


def _result(per_input: dict[str, list[dict[str, Measured]]], cgc: bool) -> dict[str, Any]:
    return {
        "peers": {"crg": "==".join(CRG[:2]), **({"cgc": "==".join(CGC[:2])} if cgc else {})},
        "rounds": max((len(rows) for rows in per_input.values()), default=0),
        "load_average": os.getloadavg(),
        "inputs": {
            name: {
                "summary": _summary(rows),
                "rounds": [{tool: asdict(m) for tool, m in row.items()} for row in rows],
            }
            for name, rows in per_input.items()
            if rows
        },
    }


_LOGGED = re.compile(
    r"round (\d+) (\S+) (\S+): Measured\(wall=(\S+), user=(\S+), system=(\S+), "
    r"rss_mb=(\S+), server_cpu=(\S+), stages=(\{.*\})\)$"
)


def from_log(log: Path, cgc: bool = False) -> dict[str, Any]:
    """The result of a run from the lines it printed to stderr (a run stopped before its
    first `--json` write)."""
    per_input: dict[str, dict[int, dict[str, Measured]]] = {}
    for line in log.read_text().splitlines():
        if (m := _LOGGED.match(line)) is None:
            continue
        number, name, tool = int(m.group(1)), m.group(2), m.group(3)
        wall, user, system, rss, server = (float(m.group(i)) for i in range(4, 9))
        stages = {str(k): float(v) for k, v in ast.literal_eval(m.group(9)).items()}
        measured = Measured(wall, user, system, rss, server, stages)
        per_input.setdefault(name, {}).setdefault(number, {})[tool] = measured
    complete = {
        name: [row for _n, row in sorted(rows.items()) if len(row) >= 2]
        for name, rows in per_input.items()
    }
    return _result(complete, cgc)


def run(rounds: int, inputs: Sequence[str], cgc: bool, out: Path | None = None) -> dict[str, Any]:
    """Every round of every input; after each, the results so far go to `out` (a run cut
    short by the deadline of a loaded machine still leaves its rounds)."""
    sources = {name: make() for name, make in _inputs().items() if name in inputs}
    peers: dict[str, Callable[[Path, str], Measured]] = {"crg": _CodeReviewGraph()}
    if cgc:
        peers["cgc"] = _CodeGraphContext()
    with ExitStack() as stack:
        server, endpoint = stack.enter_context(private_server())
        client = stack.enter_context(Neo4jClient(endpoint))
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="peers-"))
        ensure_schema(client, SchemaConfig())
        pid = server.status().pid
        assert pid is not None
        env = {
            **_quiet_env(),
            **endpoint_env(endpoint),
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        }
        tools: dict[str, Callable[[Path, str], Measured]] = {
            "ours": _Ours(client, pid, env),
            **peers,
        }
        per_input: dict[str, list[dict[str, Measured]]] = {name: [] for name in sources}
        for index in range(rounds):
            for name, source in sources.items():
                work = Path(tmp) / name / source.name
                if not work.exists():
                    shutil.copytree(source, work)
                order = list(tools) if index % 2 == 0 else list(reversed(tools))
                row = {}
                for tool in order:
                    row[tool] = tools[tool](work, "peers")  # alone in the graph: no cross stage
                    print(f"round {index + 1} {name} {tool}: {row[tool]}", file=sys.stderr)
                per_input[name].append(row)
                if out is not None:
                    out.write_text(json.dumps(_result(per_input, cgc), indent=2) + "\n")
    return _result(per_input, cgc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--inputs",
        default="flask,django,django-tree",
        help="comma-separated: " + ", ".join(_inputs()),
    )
    parser.add_argument("--cgc", action="store_true", help="CodeGraphContext too (minutes)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--from-log", type=Path, help="summarise a run's stderr instead")
    args = parser.parse_args()
    if args.from_log:
        print(json.dumps(from_log(args.from_log, args.cgc), indent=2))
        return
    wanted = [name.strip() for name in args.inputs.split(",") if name.strip()]
    unknown = sorted(set(wanted) - set(_inputs()))
    if unknown:
        parser.error(f"unknown inputs {unknown}; choose from {sorted(_inputs())}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
    print(json.dumps(run(args.rounds, wanted, args.cgc, args.json), indent=2))


if __name__ == "__main__":
    main()
