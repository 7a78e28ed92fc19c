"""Where a full index spends its CPU (issue 56): per stage of `build_graph`, the indexer's and
the Neo4j server's CPU seconds, and inside each stage a cProfile of the indexer grouped by
rule (value flow, dispatch, call resolution, the reach graph and tests, parsing, writes).

Everything runs in this process (one parse and one link worker) against a private throwaway
server, embeddings off. A C function's time (a `dict.get`, tree-sitter's `parse`) is counted
with the module that called it, so a group's figure is all the CPU its own code took;
tree-sitter's parser is kept apart. Each input is indexed twice: without the profiler (each
stage's `cpu_s`, `server_cpu_s`), then under it, timed by this thread's CPU clock
(`profiled_cpu_s`: cProfile multiplies the Python code's CPU several times, so read the groups as
shares). The write stage's thread (write_behind.py) is not profiled; its CPU is in `cpu_s`.

    .venv/bin/python -m benchmarks.speed.stage_profile [PATH ...] [--json out.json]
        (default: flask 3.0.3 `src/flask` and Django 5.1.4's package)
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.common.server import private_server, server_cpu
from benchmarks.oracles.packages import SRC_DIR, download_sdist, extract_sdist
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.ingest import pipeline
from graphrag_code.ingest.pipeline import IndexOptions, build_graph

# (group, path fragments of the modules whose code counts for it), first match wins
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("value flow (python/values)", ("languages/python/values/",)),
    ("dispatch", ("languages/python/dispatch",)),
    (
        "call resolution (calls, resolver, receivers, signatures)",
        (
            "languages/python/calls.py",
            "languages/python/resolver.py",
            "languages/python/receivers.py",
            "languages/python/signatures.py",
            "languages/python/implicit.py",
            "languages/python/spawners.py",
            "languages/python/escapes.py",
            "languages/python/annotations.py",
            "languages/python/linker.py",
        ),
    ),
    ("linking core (linking/)", ("graphrag_code/linking/",)),
    ("reach graph and tests", ("ingest/tests_stage.py", "ingest/receivers.py", "conventions/")),
    ("python parse (facts, flows, symbols)", ("languages/python/", "parsing/")),
    ("typescript / javascript", ("languages/ecmascript/",)),
    ("other languages", ("languages/go/", "languages/java/", "languages/rust/")),
    ("rows and writes (client side)", ("ingest/rows.py", "graph/", "/neo4j/", "write_behind")),
    ("state (pickle, hashes)", ("ingest/state.py", "pickle")),
    ("other graphrag_code", ("graphrag_code/",)),
)
TREE_SITTER = "tree-sitter (C)"


def _group(filename: str, function: str) -> str:
    if "tree_sitter" in function or "tree_sitter" in filename:
        return TREE_SITTER
    path = filename.replace(os.sep, "/")
    for name, fragments in RULES:
        if any(fragment in path for fragment in fragments):
            return name
    return "stdlib and other libraries"


def _by_group(profile: cProfile.Profile) -> dict[str, float]:
    """Self time by group; a built-in's time goes to the group of its caller."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    groups: dict[str, float] = defaultdict(float)
    for (filename, _line, function), (_cc, _nc, tottime, _ct, callers) in stats.items():
        if filename != "~" or "tree_sitter" in function or not callers:
            groups[_group(filename, function)] += tottime
            continue
        for (caller_file, _l, caller_function), timing in callers.items():
            groups[_group(caller_file, caller_function)] += timing[2]
    return dict(sorted(((k, round(v, 2)) for k, v in groups.items()), key=lambda kv: -kv[1]))


def _own_cpu() -> float:
    own = os.times()
    return own.user + own.system + own.children_user + own.children_system


class _Stages:
    """Stands in for `pipeline._timed`: the stage's wall time as before, and beside it the
    indexer's and the server's CPU, and a profile of this thread, per stage."""

    def __init__(self, server_pid: int, profiled: bool) -> None:
        self.pid, self.profiled = server_pid, profiled
        self.cpu: dict[str, float] = defaultdict(float)
        self.server: dict[str, float] = defaultdict(float)
        self.profiles: dict[str, cProfile.Profile] = {}
        self.original = pipeline._timed

    @contextmanager
    def timed(self, report: Any, stage: str) -> Iterator[None]:
        # this thread's CPU, not wall time: on a loaded machine the wall clock mostly counts
        # the time other processes held the cores
        profile = self.profiles.setdefault(stage, cProfile.Profile(time.thread_time))
        cpu, server = _own_cpu(), server_cpu(self.pid)
        with self.original(report, stage):
            if self.profiled:
                profile.enable()
            try:
                yield
            finally:
                profile.disable()
        self.cpu[stage] += _own_cpu() - cpu
        self.server[stage] += server_cpu(self.pid) - server


def profile(
    path: Path, client: Neo4jClient, server_pid: int, state: Path, *, profiled: bool
) -> dict[str, Any]:
    """One full index of `path`: each stage's wall, indexer and server CPU seconds, and
    (`profiled`) this thread's CPU by group under cProfile."""
    stages = _Stages(server_pid, profiled)
    pipeline._timed = stages.timed
    try:
        started = time.perf_counter()
        report = build_graph(
            path, client, repo=f"profile-{path.name}", state_dir=state,
            options=IndexOptions(full=True, workers=1, link_workers=1),
        )  # fmt: skip
        wall = time.perf_counter() - started
    finally:
        pipeline._timed = stages.original
    return {
        "path": str(path),
        "files": report.files_total,
        "edges": dict(report.edges),
        "wall_s": round(wall, 2),
        "stages": {
            stage: {
                "wall_s": round(seconds, 2),
                "cpu_s": round(stages.cpu[stage], 2),
                "server_cpu_s": round(stages.server[stage], 2),
                **({"profiled_cpu_s": _by_group(stages.profiles[stage])} if profiled else {}),
            }
            for stage, seconds in report.seconds.items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    paths = args.paths or [
        SRC_DIR / "flask-3.0.3" / "src" / "flask",
        extract_sdist("django", "5.1.4", download_sdist("django", "5.1.4")) / "django",
    ]
    results = []
    with (
        private_server() as (server, end),
        Neo4jClient(end) as client,
        tempfile.TemporaryDirectory() as tmp,
    ):
        ensure_schema(client, SchemaConfig())
        pid = server.status().pid
        if pid is None:
            raise SystemExit("the throwaway server has no pid to read its CPU from")
        for path in paths:  # unprofiled first: the stages' CPU without the profiler's cost
            for profiled in (False, True):
                run = profile(path.resolve(), client, pid, Path(tmp), profiled=profiled)
                results.append({"profiled": profiled, **run})
    text = json.dumps({"load_average": os.getloadavg(), "runs": results}, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
