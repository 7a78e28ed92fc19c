"""The first `diff` after the server's plans are gone, against the next one (issue 54: `diff`
stays at most 2 s on Django-sized graphs), for two versions of the library, interleaved.

A graph `diff_speed` builds (Django's sdist as a git repository, three body edits, brought up
to date) is reused: `--work` is that working tree and `--repo` its repository name. Each round
runs, for each version in turn (the order rotates), `CodeGraph.diff(update=False)` in a new
process right after `CALL db.clearQueryCaches()` (cold) and once more (warm), then the whole
`graphrag-code diff --no-update --json` command in a new process, cold and warm the same way.
Each call also records its CPU seconds and the managed server's (from /proc: on a loaded
machine they vary far less than the wall clock). A version is a source tree put first on
`PYTHONPATH` (e.g. `git archive <commit>` unpacked);
the commands must print the same JSON in every version. `--restart` adds a cold call after
the managed server is stopped and started again (its JIT and page cache cold too).

    .venv/bin/python -m benchmarks.speed.diff_cold --work DIR --repo NAME \\
        --version before=/tmp/base --version after=. [--rounds 3] [--restart] [--json out.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.settings import load_settings

# run in a new process with a version first on the path: one cold and one warm library call
_LIBRARY_CALLS = """
import json, os, sys, time
from pathlib import Path
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.settings import load_settings
work, repo, clear, server = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "clear", sys.argv[4]
def server_cpu():
    fields = Path(f"/proc/{server}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
with CodeGraph(load_settings(), embedder=HashingEmbedder()) as graph:
    graph.client.read("RETURN 1")  # connected: what is timed is the diff
    if clear:
        graph.client.read("CALL db.clearQueryCaches()")
    seconds, cpu, server_seconds = [], [], []
    for _ in range(2):
        started, used, served = time.perf_counter(), time.process_time(), server_cpu()
        impact = graph.diff(path=work, repo=repo, update=False)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
        server_seconds.append(server_cpu() - served)
print(json.dumps({"seconds": seconds, "cpu": cpu, "server_cpu": server_seconds,
                  "tests": [t.runner_id for t in impact.tests],
                  "affected": [a.id for a in impact.affected]}))
"""


def _env(source: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(source.resolve())}


def _clear_plans() -> None:
    with CodeGraph(load_settings(), embedder=HashingEmbedder()) as graph:
        graph.client.read("CALL db.clearQueryCaches()")


def _server_pid() -> str:
    """The managed server's process (its launcher's pid file in the data folder)."""
    return (load_settings().neo4j_home / "launcher.pid").read_text().strip()


def _server_cpu() -> float:
    fields = Path(f"/proc/{_server_pid()}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _library(source: Path, work: Path, repo: str, clear: bool) -> dict[str, Any]:
    printed = subprocess.run(
        [sys.executable, "-c", _LIBRARY_CALLS, str(work), repo, "clear" if clear else "keep",
         _server_pid()],
        check=True, capture_output=True, text=True, env=_env(source),
    ).stdout  # fmt: skip
    found: dict[str, Any] = json.loads(printed.strip().splitlines()[-1])
    return found


def _command(source: Path, work: Path, repo: str) -> tuple[float, float, float, str]:
    """Wall seconds, the command's CPU seconds, the server's, and a hash of what it printed."""
    started, served = time.perf_counter(), _server_cpu()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    printed = subprocess.run(
        [sys.executable, "-m", "graphrag_code.cli.main", "diff", "--path", str(work),
         "--repo", repo, "--no-update", "--json"],
        check=True, capture_output=True, text=True, env=_env(source),
    ).stdout  # fmt: skip
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    digest = hashlib.sha256(printed.encode()).hexdigest()[:16]
    return wall, cpu, _server_cpu() - served, digest


def _restart() -> None:
    for action in ("stop", "start"):
        subprocess.run(
            [sys.executable, "-m", "graphrag_code.cli.main", "neo4j", action],
            check=True, capture_output=True,
        )  # fmt: skip


def _load() -> float:
    return round(os.getloadavg()[0], 1)


def _round(
    versions: list[tuple[str, Path]], work: Path, repo: str, restart: bool
) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for name, source in versions:
        row: dict[str, Any] = {"load": _load()}
        library = _library(source, work, repo, clear=True)
        row["library_cold"], row["library_warm"] = (round(s, 3) for s in library["seconds"])
        row["library_cpu_cold"], row["library_cpu_warm"] = (round(s, 3) for s in library["cpu"])
        row["server_cpu_cold"], row["server_cpu_warm"] = (
            round(s, 3) for s in library["server_cpu"]
        )
        row["result"] = hashlib.sha256(
            json.dumps([library["tests"], library["affected"]]).encode()
        ).hexdigest()[:16]
        _clear_plans()
        cold, cold_cpu, cold_server, printed = _command(source, work, repo)
        warm, warm_cpu, warm_server, again = _command(source, work, repo)
        row |= {"command_cold": round(cold, 3), "command_warm": round(warm, 3)}
        row |= {"command_cpu_cold": round(cold_cpu, 3), "command_cpu_warm": round(warm_cpu, 3)}
        row |= {
            "command_server_cpu_cold": round(cold_server, 3),
            "command_server_cpu_warm": round(warm_server, 3),
        }
        row["printed"] = sorted({printed, again})
        if restart:
            _restart()
            row["library_after_restart"] = round(
                _library(source, work, repo, clear=False)["seconds"][0], 3
            )
        row["load_after"] = _load()
        found[name] = row
        print(name, json.dumps(row), flush=True)
    return found


def _summary(rounds: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    keys = (
        "library_cold", "library_warm", "library_cpu_cold", "library_cpu_warm",
        "server_cpu_cold", "server_cpu_warm", "command_cold", "command_warm",
        "command_cpu_cold", "command_cpu_warm", "command_server_cpu_cold",
        "command_server_cpu_warm",
    )  # fmt: skip
    summary: dict[str, dict[str, Any]] = {}
    for name in rounds[0]:
        rows = [one[name] for one in rounds]
        summary[name] = {f"{key}_median": statistics.median(r[key] for r in rows) for key in keys}
        if "library_after_restart" in rows[0]:
            summary[name]["library_after_restart_median"] = statistics.median(
                r["library_after_restart"] for r in rows
            )
        summary[name]["results"] = sorted({r["result"] for r in rows})
        summary[name]["printed"] = sorted({p for r in rows for p in r["printed"]})
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", type=Path, required=True, help="the indexed working tree")
    parser.add_argument("--repo", required=True, help="its repository name in the graph")
    parser.add_argument(
        "--version", action="append", required=True, help="NAME=SOURCE_TREE (two or more)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--restart", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    versions = [(v.split("=", 1)[0], Path(v.split("=", 1)[1])) for v in args.version]
    rounds: list[dict[str, dict[str, Any]]] = []
    for at in range(args.rounds):
        turn = at % len(versions)
        rounds.append(_round(versions[turn:] + versions[:turn], args.work, args.repo, args.restart))
        if args.json:  # after each round: a run cut short keeps the rounds it finished
            args.json.write_text(json.dumps(_result(args.work, versions, rounds), indent=2) + "\n")
    print(json.dumps(_result(args.work, versions, rounds)["summary"], indent=2))


def _result(
    work: Path, versions: list[tuple[str, Path]], rounds: list[dict[str, dict[str, Any]]]
) -> dict[str, Any]:
    summary = _summary(rounds)
    return {
        "work": str(work),
        "versions": {name: str(source) for name, source in versions},
        "rounds": rounds,
        "summary": summary,
        "same_output": len({p for s in summary.values() for p in s["printed"]}) == 1
        and len({r for s in summary.values() for r in s["results"]}) == 1,
    }


if __name__ == "__main__":
    main()
