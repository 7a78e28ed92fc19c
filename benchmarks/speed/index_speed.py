"""Indexing speed on a large real package (default: Django's sdist), embeddings off.

Reports files/s, seconds per stage, peak RSS (this process, Neo4j), and the time
of incremental re-indexes: no change, a one-file body edit, a one-file interface edit.
`--timeline` also samples, every half second of the full index, how many cores the machine
and the server kept busy, beside the moments each stage began: where two cores sat idle.

    .venv/bin/python -m benchmarks.speed.index_speed [--package django==5.1.4] [--json out.json]
        [--full-only] [--workers N] [--timeline]
    .venv/bin/python -m benchmarks.speed.index_speed --path benchmarks/cache/oracles/ts/\
        blueprintjs+core-5.16.0 --edit-file src/components/button/buttons.tsx   # TypeScript
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.api import connect
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import IndexOptions, build_graph
from graphrag_code.ingest.state import StateStore
from graphrag_code.runtime.server.endpoints import local_server
from graphrag_code.settings import load_settings

REPO = "bench-index-speed"


def _peak_rss_mb() -> dict[str, float]:
    # Not RUSAGE_CHILDREN: the `git rev-parse` forked at the end of a run inherits this
    # process's resident pages, so that "peak" is always this one (earlier results' equal
    # `parse_workers_mb`). The workers' own peaks: `benchmarks.scale.index_memory`.
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"python_mb": round(own, 1)}


def _neo4j_peak_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def _cpu_seconds(server_pid: int | None) -> tuple[float, float | None]:
    """CPU seconds used so far by this process with its reaped children (the parse and link
    workers), and by the Neo4j server (None when it is not a local process)."""
    own = os.times()
    ours = own.user + own.system + own.children_user + own.children_system
    if server_pid is None:
        return ours, None
    try:
        fields = Path(f"/proc/{server_pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return ours, None
    return ours, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _cpu_use(
    before: tuple[float, float | None], after: tuple[float, float | None], seconds: float
) -> dict[str, float | None]:
    """What the run cost in CPU, and how many cores it kept busy on average: on a machine
    whose server shares the indexer's cores, two workers can speed a run up by at most
    cores / busy cores of the one-worker run (issue 20, BENCHMARKS.md section 16e)."""
    indexer = after[0] - before[0]
    server = None if after[1] is None or before[1] is None else after[1] - before[1]
    total = indexer + (server or 0.0)
    return {
        "indexer_cpu_seconds": round(indexer, 1),
        "server_cpu_seconds": None if server is None else round(server, 1),
        "busy_cores": round(total / seconds, 2),
    }


def _machine_busy() -> tuple[float, float]:
    """Seconds of CPU the whole machine has been busy and idle (all cores, /proc/stat)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields[:8]) - idle) / tick, idle / tick


class _Timeline:
    """Busy cores (the machine's, the server's) every `every` seconds, and stage marks: a
    progress reporter that records when each stage the run names begins, and the CPU the
    indexer had used by then (its worker processes count once they are reaped, at the end of
    the stage that ran them)."""

    def __init__(self, server_pid: int | None, every: float = 0.5) -> None:
        self._server_pid, self._every = server_pid, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self.started = time.perf_counter()
        self.samples: list[tuple[float, float, float | None]] = []
        self.stages: list[tuple[float, str]] = []
        self._indexer_cpu: list[float] = []  # at each stage mark, then at the end

    def stage(self, name: str, total: int | None = None) -> None:
        self.stages.append((round(time.perf_counter() - self.started, 2), name))
        self._indexer_cpu.append(_cpu_seconds(None)[0])

    def advance(self, amount: int = 1) -> None:
        return None

    def __enter__(self) -> _Timeline:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._indexer_cpu.append(_cpu_seconds(None)[0])
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        busy, _idle = _machine_busy()
        server = _cpu_seconds(self._server_pid)[1]
        last = time.perf_counter()
        while not self._stop.wait(self._every):
            now = time.perf_counter()
            busy_now, _idle = _machine_busy()
            server_now = _cpu_seconds(self._server_pid)[1]
            span = now - last
            server_cores = (
                None if server is None or server_now is None else (server_now - server) / span
            )
            self.samples.append(
                (
                    round(now - self.started, 2),
                    round((busy_now - busy) / span, 2),
                    None if server_cores is None else round(server_cores, 2),
                )
            )
            busy, server, last = busy_now, server_now, now

    def by_stage(self) -> list[dict[str, Any]]:
        """Each stage's span, the cores the machine and the server kept busy in it, and the
        indexer's CPU seconds from its mark to the next."""
        marks = [*self.stages, (self.samples[-1][0] if self.samples else 0.0, "end")]
        cpu = self._indexer_cpu
        spans = []
        for index, ((start, name), (end, _next)) in enumerate(itertools.pairwise(marks)):
            inside = [s for s in self.samples if start < s[0] <= end]
            if not inside:
                continue
            servers = [s[2] for s in inside if s[2] is not None]
            spans.append(
                {
                    "stage": name,
                    "from_s": start,
                    "seconds": round(end - start, 2),
                    "busy_cores": round(sum(s[1] for s in inside) / len(inside), 2),
                    "server_cores": round(sum(servers) / len(servers), 2) if servers else None,
                    "indexer_cpu_s": round(cpu[index + 1] - cpu[index], 1),
                }
            )
        return spans


def _edit_body(path: Path) -> None:
    text = path.read_text()
    python = path.suffix == ".py"
    marker = "\n    return " if python else "\n        return "
    at = text.index(marker)
    edit = "\n    _benchmark_edit = 1" if python else "\n        const benchmarkEdit = 1;"
    path.write_text(text[:at] + edit + text[at:])


def _edit_interface(path: Path) -> None:
    added = (
        "\n\ndef benchmark_added_function():\n    return 1\n"
        if path.suffix == ".py"
        else "\n\nexport function benchmarkAddedFunction() {\n    return 1;\n}\n"
    )
    path.write_text(path.read_text() + added)


def run(
    spec: str,
    edit_file: str,
    path: Path | None = None,
    *,
    full_only: bool = False,
    workers: int | None = None,
    timeline: bool = False,
) -> dict[str, Any]:
    """`workers`: processes that parse and that link (None: the defaults, up to 4 and 2)."""
    if path is not None:
        source = path.resolve()
        spec = source.name
    else:
        name, version = parse_spec(spec)
        source = extract_sdist(name, version, download_sdist(name, version))
    settings = load_settings()
    server_pid = local_server(settings).status().pid if not settings.neo4j_uri else None
    with tempfile.TemporaryDirectory() as tmp, connect(settings) as client:
        work = Path(tmp) / source.name
        shutil.copytree(source, work)
        state_dir = Path(tmp) / "state"
        ensure_schema(
            client,
            SchemaConfig(
                vector_index=settings.vector_index, fulltext_index=settings.fulltext_index
            ),
        )
        GraphWriter(client, REPO).delete_repository()

        cpu_before = _cpu_seconds(server_pid)
        started = time.perf_counter()
        options = (
            IndexOptions()
            if workers is None
            else IndexOptions(workers=workers, link_workers=workers)
        )
        with _Timeline(server_pid) as sampled:
            full = build_graph(
                work, client, repo=REPO, state_dir=state_dir, options=options, progress=sampled
            )
        full_seconds = time.perf_counter() - started
        full_cpu = _cpu_use(cpu_before, _cpu_seconds(server_pid), full_seconds)

        # "cold": a new process each time (state loaded from disk); "warm": a long-lived
        # process that keeps the state in memory; "watch": warm, and told which file changed
        # (what `index --watch` does), so it does not walk the tree. The state is saved to
        # disk in the background after a warm run; the next edit is timed once that is done.
        incremental: dict[str, Any] = {}
        store = StateStore(state_dir)
        edited = frozenset({str(work / edit_file)})
        for label, edit, mode in (
            ()
            if full_only
            else (
                ("cold_no_change", None, "cold"),
                ("cold_one_file_body_edit", _edit_body, "cold"),
                ("warm_prime", None, "warm"),
                ("warm_no_change", None, "warm"),
                ("warm_one_file_body_edit", _edit_body, "warm"),
                ("watch_one_file_body_edit", _edit_body, "watch"),
                ("watch_one_file_interface_edit", _edit_interface, "watch"),
            )
        ):
            store.wait()
            if edit is not None:
                edit(work / edit_file)
            started = time.perf_counter()
            if mode == "cold":
                report = build_graph(work, client, repo=REPO, state_dir=state_dir)
            else:
                hints = IndexOptions(changed_paths=edited) if mode == "watch" else None
                report = build_graph(work, client, repo=REPO, store=store, options=hints)
            seconds = time.perf_counter() - started
            saving = time.perf_counter()
            store.wait()
            incremental[label] = {
                "seconds": round(seconds, 3),
                "background_save_seconds": round(time.perf_counter() - saving, 3),
                "relinked_files": report.files_relinked,
                "parsed_files": report.files_parsed,
                "edges_written": report.edges_written,
                "edges_deleted": report.edges_deleted,
                "stages": {k: round(v, 3) for k, v in report.seconds.items()},
            }
        GraphWriter(client, REPO).delete_repository()
    return {
        "package": spec,
        "files": full.files_total,
        "languages": {lang: c.as_dict() for lang, c in full.languages.items()},
        "symbols": full.symbols,
        "edges": sum(full.edges.values()),
        "full_seconds": round(full_seconds, 2),
        "files_per_second": round(full.files_total / full_seconds, 1),
        "cpu": full_cpu,
        "stages": {k: round(v, 2) for k, v in full.seconds.items()},
        "incremental": incremental,
        "peak_rss": {**_peak_rss_mb(), "neo4j_mb": _neo4j_peak_mb(server_pid)},
        **(
            {"timeline": {"by_stage": sampled.by_stage(), "samples": sampled.samples}}
            if timeline
            else {}
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--path", type=Path, help="a local folder instead of a PyPI sdist")
    parser.add_argument("--edit-file", default="django/utils/text.py")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--full-only", action="store_true", help="time the full index alone (A/B pairs)"
    )
    parser.add_argument(
        "--workers", type=int, help="processes that parse and that link (default: up to 4 and 2)"
    )
    parser.add_argument(
        "--timeline", action="store_true", help="busy cores every 0.5 s of the full index"
    )
    args = parser.parse_args()
    result = run(
        args.package,
        args.edit_file,
        args.path,
        full_only=args.full_only,
        workers=args.workers,
        timeline=args.timeline,
    )
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
