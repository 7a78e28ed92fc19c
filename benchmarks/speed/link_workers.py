"""The link stage on one and on two processes (issue 20): seconds, files/s, and whether the
links are the same.

Django's sdist (default) is parsed once; then every file is linked with `workers=1` and with
`workers=2`, each time with fresh linking contexts (nothing shared between the two runs), in
alternating order, best of `--runs` each. The links of the two are compared edge by edge
(and every other field of each file's `FileLinks`, the records of what linking it consulted
counted apart); the CPU seconds of each run are split into
the parent's and the link processes'. `--alone N` also links a seeded sample of
N Python files each by itself, with nothing shared (what an incremental run that relinks a
few files does), and counts those whose links equal the one-process run's.

    .venv/bin/python -m benchmarks.speed.link_workers [--package django==5.1.4] [--runs 2] \
        [--alone 100] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.ingest.languages import LanguageRun
from graphrag_code.ingest.offline import link_parsed, link_repository
from graphrag_code.ingest.state import paused_gc
from graphrag_code.languages import index_rules
from graphrag_code.linking.consulted import ConsultedKeys
from graphrag_code.linking.edges import FileLinks, NodeIds
from graphrag_code.linking.index import RepositoryIndex


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its reaped children (the link processes)."""
    now = os.times()
    return now.user + now.system, now.children_user + now.children_system


def _timed_link(parsed: dict[str, Any], workers: int) -> tuple[float, dict[str, float], Any]:
    with paused_gc():
        own, children = _cpu()
        start = time.perf_counter()
        linked = link_parsed(parsed, repo="bench", workers=workers)
        took = time.perf_counter() - start
        own_after, children_after = _cpu()
    cpu = {"parent": round(own_after - own, 1), "children": round(children_after - children, 1)}
    return took, cpu, linked


def _alone(parsed: dict[str, Any], full: dict[str, Any], count: int) -> dict[str, Any]:
    """Link `count` sampled Python files one at a time, each with a fresh linking context."""
    index = RepositoryIndex(parsed.values(), index_rules())
    ids = NodeIds("bench", index)
    python = sorted(path for path in parsed if path.endswith(".py"))
    sample = random.Random(20261202).sample(python, min(count, len(python)))
    differing = []
    with paused_gc():
        for path in sample:
            langs = LanguageRun.of(None)
            langs.prepare(index, {})
            if langs.link(parsed[path], index, ids) != full[path]:
                differing.append(path)
    return {"files": len(sample), "same": len(sample) - len(differing), "differing": differing}


def _without_records(links: FileLinks) -> FileLinks:
    """A file's links without the record of what linking it consulted."""
    return replace(links, modules_consulted=ConsultedKeys(), names_consulted=frozenset())


def measure(root: Path, runs: int, alone: int = 0) -> dict[str, Any]:
    base = link_repository(root, repo="bench", workers=2)
    parsed = base.parsed
    seconds: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    results: dict[int, Any] = {}
    for run in range(runs):
        for workers in (1, 2) if run % 2 == 0 else (2, 1):
            took, used, linked = _timed_link(parsed, workers)
            seconds[workers].append(round(took, 2))
            cpu[workers].append(used)
            results[workers] = linked.links
    one, two = results[1], results[2]
    differing = sorted(path for path in one.keys() | two.keys() if one.get(path) != two.get(path))
    # what a file consulted may differ while its links do not: a value-flow result that met a
    # cycle where one process computed it is computed again, another way round, and reads
    # more; where another process had it whole, it is reused with the record of that
    # computation, which is all its values depend on (both records are sound for relinking)
    edges_differ = [
        path
        for path in differing
        if path not in one
        or path not in two
        or _without_records(one[path]) != _without_records(two[path])
    ]
    best = {workers: min(values) for workers, values in seconds.items()}
    extra = {"linked_alone": _alone(parsed, one, alone)} if alone else {}
    return {
        **extra,
        "files": len(parsed),
        "edges": sum(len(links.edges) for links in one.values()),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "seconds": seconds,
        "cpu_seconds": cpu,
        "files_per_second": {w: round(len(parsed) / s, 1) for w, s in best.items()},
        "speed_up": round(best[1] / best[2], 2),
        "files_with_different_links": edges_differ[:20],
        "files_with_different_links_count": len(edges_differ),
        "files_with_different_consulted_records_only": len(differing) - len(edges_differ),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "children_peak_rss_mb": round(
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--path", type=Path, help="a source tree instead of a package")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--alone", type=int, default=0, help="files to link one at a time")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.path is not None:
        root, label = args.path, str(args.path)
    else:
        name, version = parse_spec(args.package)
        archive = download_sdist(name, version)
        root, label = extract_sdist(name, version, archive), args.package
    result = {"package": label, **measure(root, args.runs, args.alone)}
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
