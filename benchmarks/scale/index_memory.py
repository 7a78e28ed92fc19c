"""Where the indexer's memory goes (issue 20: peak RSS <= 2 GB): one full index per package,
each in a fresh process, sampled every 50 ms.

Reports, per package: the indexer's peak RSS (VmHWM) and its RSS at each stage's end, the
peak RSS of each process it forked (parse and link workers, sampled every 200 ms), and the
peak of the whole tree's PSS (shared pages counted once: what the machine had to hold).
`getrusage(RUSAGE_CHILDREN)` is no use here: the `git rev-parse` forked at the end of a run
inherits the indexer's resident pages, so its "peak" is the indexer's.

    .venv/bin/python -m benchmarks.scale.index_memory [--only django,homeassistant] \
        [--json out.json] [--link-ceiling-mb MIB|none]

Packages are sdists from PyPI (`benchmarks.scale.scale.PACKAGES`); indexed without embeddings into
the managed local Neo4j (or NEO4J_URI) as `memory-<package>`, deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import extract_sdist
from benchmarks.scale.scale import PACKAGES, fetch_sdist
from graphrag_code.linking.shared_budget import DEFAULT_CEILING_MB

_SAMPLE_SECONDS = 0.05
_TREE_EVERY = 4  # samples between two walks of the process tree (reading smaps costs)


def _status_mb(pid: int, name: str, file: str = "status") -> float:
    try:
        with open(f"/proc/{pid}/{file}") as handle:
            for line in handle:
                if line.startswith(name):
                    return int(line.split()[1]) / 1024
    except OSError:
        return 0.0
    return 0.0


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            children = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found.append(child)
            found.extend(_descendants(child))
    return found


class _Sampler:
    """The indexer's RSS by stage, its forked processes' peaks and the tree's PSS peak."""

    def __init__(self) -> None:
        self.stage = "start"
        self.stage_end_mb: dict[str, float] = {}
        self.child_peak_mb: dict[int, float] = {}
        self.tree_pss_mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me, tick = os.getpid(), 0
        while not self._stop.wait(_SAMPLE_SECONDS):
            tick += 1
            if tick % _TREE_EVERY:
                continue
            children = _descendants(me)
            for child in children:
                rss = _status_mb(child, "VmRSS:")
                self.child_peak_mb[child] = max(self.child_peak_mb.get(child, 0.0), rss)
            pss = sum(_status_mb(p, "Pss:", "smaps_rollup") for p in [me, *children])
            self.tree_pss_mb = max(self.tree_pss_mb, pss)

    def enter(self, name: str) -> None:
        """A new stage begins: note the RSS the last one ended with."""
        self.stage_end_mb[self.stage] = _status_mb(os.getpid(), "VmRSS:")
        self.stage = name


class _Progress:
    """The `ProgressReporter` the indexer is given: it tells the sampler each stage."""

    def __init__(self, sampler: _Sampler) -> None:
        self.sampler = sampler

    def stage(self, name: str, total: int | None = None) -> None:
        self.sampler.enter(name)

    def advance(self, amount: int = 1) -> None:
        return None


def measure(source: Path, repo: str, ceiling_mb: int | None = DEFAULT_CEILING_MB) -> dict[str, Any]:
    """Index `source` here (a fresh process: `main --child`) and report its memory."""
    from graphrag_code.api import connect
    from graphrag_code.graph.schema import SchemaConfig, ensure_schema
    from graphrag_code.graph.writer import GraphWriter
    from graphrag_code.ingest.pipeline import IndexOptions, build_graph
    from graphrag_code.settings import load_settings

    settings = load_settings()
    sampler = _Sampler()
    with tempfile.TemporaryDirectory() as tmp, connect(settings) as client:
        config = SchemaConfig(
            vector_index=settings.vector_index, fulltext_index=settings.fulltext_index
        )
        ensure_schema(client, config)
        GraphWriter(client, repo).delete_repository()
        sampler.start()
        started = time.perf_counter()
        report = build_graph(
            source, client, repo=repo, state_dir=Path(tmp) / "state",
            options=IndexOptions(link_ceiling_mb=ceiling_mb), progress=_Progress(sampler),
        )  # fmt: skip
        seconds = time.perf_counter() - started
        sampler.enter("done")
        sampler.stop()
        GraphWriter(client, repo).delete_repository()
    children = sorted(sampler.child_peak_mb.values(), reverse=True)
    return {
        "files": report.files_total,
        "symbols": report.symbols,
        "edges": sum(report.edges.values()),
        "seconds": round(seconds, 1),
        "stages": {k: round(v, 1) for k, v in report.seconds.items()},
        "indexer_peak_mb": round(_status_mb(os.getpid(), "VmHWM:"), 1),
        "rss_at_stage_end_mb": {k: round(v, 1) for k, v in sampler.stage_end_mb.items()},
        "child_peaks_mb": [round(v, 1) for v in children[:4]],
        "tree_pss_peak_mb": round(sampler.tree_pss_mb, 1),
    }


def _megabytes_or_none(text: str) -> int | None:
    """`--link-ceiling-mb`: a whole number of MiB, or 'none'."""
    if text.lower() == "none":
        return None
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected MiB or 'none', got {text!r}")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated package names (default: django)")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)  # one package, this process
    parser.add_argument("--repo", default="memory", help=argparse.SUPPRESS)
    parser.add_argument(
        "--link-ceiling-mb",
        type=_megabytes_or_none,
        default=DEFAULT_CEILING_MB,
        help=f"IndexOptions.link_ceiling_mb, or 'none' (default {DEFAULT_CEILING_MB})",
    )
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.child, args.repo, args.link_ceiling_mb)))
        return
    wanted = (args.only or "django").split(",")
    versions = dict(PACKAGES)
    results: dict[str, Any] = {}
    for name in wanted:
        if name not in versions:
            raise SystemExit(f"unknown package {name!r}: one of {', '.join(versions)}")
        source = extract_sdist(name, versions[name], fetch_sdist(name, versions[name]))
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.scale.index_memory", "--child", str(source),
             "--repo", f"memory-{name}", "--link-ceiling-mb", str(args.link_ceiling_mb).lower()],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            results[name] = {"error": done.stderr[-2000:]}
        else:
            results[name] = {"version": versions[name], **json.loads(done.stdout.splitlines()[-1])}
        print(name, json.dumps(results[name]), flush=True)
        if args.json is not None:
            args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
