"""Many large repositories in one graph (issue 20): index time, memory and latency at scale.

Fifteen large Python sdists from PyPI are indexed one after the other into the same
database, without embeddings, each by its own `graphrag-code index` process (timed, with
the process's peak RSS from `/usr/bin/time`). Django goes first: `search()`, `callers()` and
`impact()` on its most central functions are timed on it alone, and again after each
repository added beside it. The database's size on disk is read after each repository, and
the results are written after each one, so a stopped run keeps what it measured.

    .venv/bin/python -m benchmarks.scale.scale [--only django,sympy] [--rounds 2] [--json out.json]

Uses the managed local Neo4j (or NEO4J_URI) like every command; the repositories it indexes
are named `scale-<package>` and left in the database (`graphrag-code delete --repo ...`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import SDIST_DIR, extract_sdist
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.settings import load_settings

# Django first (its answers are timed as the others are added), then by size, smallest first
PACKAGES = (
    ("django", "5.1.4"), ("setuptools", "75.6.0"), ("pip", "24.3.1"),
    ("apache-airflow", "2.10.3"), ("ansible-core", "2.18.1"), ("matplotlib", "3.9.3"),
    ("scikit-learn", "1.5.2"), ("numpy", "2.1.3"), ("twisted", "24.11.0"),
    ("scipy", "1.14.1"), ("sqlalchemy", "2.0.36"), ("pandas", "2.2.3"), ("sympy", "1.13.3"),
    ("homeassistant", "2024.12.0"), ("salt", "3007.1"),
)  # fmt: skip
SUBJECT = "scale-django"
_CLI = Path(sys.executable).with_name("graphrag-code")


def fetch_sdist(name: str, version: str) -> Path:
    """The sdist archive of `name==version`, from the package index's simple page (checked
    against the sha256 it lists). `pip download --no-binary` would build each package's
    metadata, which for numpy, scipy or pandas means compiling their build tools."""
    wanted = re.sub(r"[-_.]+", "_", name).lower()
    sdists = Path(SDIST_DIR)
    for known in sdists.glob("*.tar.gz") if sdists.is_dir() else ():
        stem = known.name.removesuffix(".tar.gz")
        if re.sub(r"[-_.]+", "_", stem).lower() == f"{wanted}_{version}".replace(".", "_"):
            return known
    page = urllib.request.urlopen(f"https://pypi.org/simple/{name}/", timeout=60).read().decode()
    for url, digest in re.findall(r'href="([^"#]+\.tar\.gz)#sha256=([0-9a-f]{64})"', page):
        filename: str = url.rsplit("/", 1)[1]
        stem = filename.removesuffix(".tar.gz")
        if re.sub(r"[-_.]+", "_", stem).lower() == f"{wanted}_{version}".replace(".", "_"):
            data = urllib.request.urlopen(url, timeout=300).read()
            if hashlib.sha256(data).hexdigest() != digest:
                raise RuntimeError(f"{filename}: sha256 differs from the index's")
            sdists.mkdir(parents=True, exist_ok=True)
            (sdists / filename).write_bytes(data)
            return sdists / filename
    raise FileNotFoundError(f"no sdist of {name}=={version} on the package index")


def _repo(name: str) -> str:
    return f"scale-{name}"


def _index(root: Path, repo: str) -> dict[str, Any]:
    """One `graphrag-code index` process: its report, wall time and peak RSS."""
    env = {**os.environ, "GRAPHRAG_CODE_EMBEDDER": "hashing"}
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        started = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M %e", "-o", timing.name, str(_CLI), "index", str(root),
             "--repo", repo, "--no-embeddings", "--full", "--json"],
            capture_output=True, text=True, env=env, check=False,
        )  # fmt: skip
        wall = time.perf_counter() - started
        peak_kb, _elapsed = Path(timing.name).read_text().split()[-2:]
    if done.returncode != 0:
        return {"error": done.stderr[-2000:], "seconds": round(wall, 1)}
    report = json.loads(done.stdout)
    return {
        "seconds": round(wall, 1),
        "peak_rss_mb": round(int(peak_kb) / 1024, 1),
        "files": report["files"]["total"],
        "symbols": report["symbols"],
        "edges": sum(report["edges"].values()),
        "stages": report.get("seconds", {}),
    }


def _lines(graph: CodeGraph, repo: str) -> int:
    rows = graph.client.read(
        "MATCH (m:Module {repo: $repo}) RETURN sum(coalesce(m.loc, 0)) AS lines", {"repo": repo}
    )
    return int(rows[0]["lines"] or 0)


def _disk_mb() -> dict[str, float] | None:
    """Megabytes on disk of the managed server's store files and of its transaction logs
    (which Neo4j keeps and rotates apart from the store)."""
    data = Path.home() / ".local" / "share" / "graphrag-code" / "neo4j-5" / "data"
    if not data.is_dir():
        return None
    sizes = {}
    for part in ("databases", "transactions"):
        done = subprocess.run(
            ["du", "-sm", str(data / part)], capture_output=True, text=True, check=False
        )
        if done.returncode == 0:
            sizes[part] = float(done.stdout.split()[0])
    return sizes


def _subjects(graph: CodeGraph, count: int) -> list[tuple[str, str, str]]:
    """(qualified name, short name, path) of the most central public functions of Django."""
    rows = graph.client.read(
        "MATCH (n:Function|Method {repo: $repo}) "
        "WHERE NOT n.name STARTS WITH '_' AND NOT coalesce(n.test_code, false) "
        "RETURN n.qualified_name AS q, n.name AS name, n.path AS path "
        "ORDER BY n.pagerank DESC, q LIMIT $count",
        {"repo": SUBJECT, "count": count},
    )
    return [(row["q"], row["name"], row["path"]) for row in rows]


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2), "n": len(ordered)}


def latencies(
    graph: CodeGraph, rounds: int, subjects: list[tuple[str, str, str]]
) -> dict[str, Any]:
    """Milliseconds of search / callers / impact on Django's most central functions."""
    options = SearchOptions(legs=("text", "graph"))  # no vectors at this scale (issue 20)

    def search(subject: tuple[str, str, str]) -> object:
        return graph.search(f"where is {subject[1]} used?", repo=SUBJECT, options=options)

    def callers(subject: tuple[str, str, str]) -> object:
        return graph.callers(subject[0], depth=2, repo=SUBJECT)

    def impact(subject: tuple[str, str, str]) -> object:
        return graph.impact(subject[2], repo=SUBJECT)

    found: dict[str, Any] = {}
    for kind, call in (("search", search), ("callers", callers), ("impact", impact)):
        for subject in subjects:  # warm-up: plans and page cache
            call(subject)
        samples = []
        for _round in range(rounds):
            for subject in subjects:
                start = time.perf_counter()
                call(subject)
                samples.append((time.perf_counter() - start) * 1000)
        found[kind] = _percentiles(samples)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="comma-separated package names (django first)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--subjects", type=int, default=15)
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results/scale.json"))
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    packages = [(n, v) for n, v in PACKAGES if wanted is None or n in wanted]
    result: dict[str, Any] = {"packages": [], "load_average_start": os.getloadavg()}
    settings = load_settings().model_copy(update={"embedder": "hashing"})
    subjects: list[tuple[str, str, str]] = []
    with CodeGraph(settings, embedder=HashingEmbedder()) as graph:
        for number, (name, version) in enumerate(packages):
            root = extract_sdist(name, version, fetch_sdist(name, version))
            entry: dict[str, Any] = {"package": f"{name}=={version}", "repo": _repo(name)}
            entry.update(_index(root, _repo(name)))
            if "error" not in entry:
                entry["lines"] = _lines(graph, _repo(name))
            entry["disk_mb_after"] = _disk_mb()
            result["packages"].append(entry)
            print(json.dumps(entry), flush=True)
            if number == 0 and name == "django":
                subjects = _subjects(graph, args.subjects)
            if subjects:
                # Django's answers beside every repository stored so far
                entry["django_latency_ms"] = latencies(graph, args.rounds, subjects)
                print("django", json.dumps(entry["django_latency_ms"]), flush=True)
            args.json.write_text(json.dumps(result, indent=2) + "\n")
    indexed = [p for p in result["packages"] if "error" not in p]
    result["totals"] = {
        "repositories": len(indexed),
        "lines": sum(p["lines"] for p in indexed),
        "symbols": sum(p["symbols"] for p in indexed),
        "edges": sum(p["edges"] for p in indexed),
        "files": sum(p["files"] for p in indexed),
        "seconds": round(sum(p["seconds"] for p in indexed), 1),
        "peak_rss_mb": max((p["peak_rss_mb"] for p in indexed), default=None),
        "disk_mb": _disk_mb(),
    }
    result["load_average_end"] = os.getloadavg()
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["totals"], indent=2))


if __name__ == "__main__":
    main()
