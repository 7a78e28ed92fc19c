"""The parse's CPU in one process: every Python file of a package (default: Django's sdist)
parsed by `PythonParser`, timed with `time.process_time` (the cores are shared, so CPU time
moves less than wall time; alternate runs of two versions to compare them).

`--together N` also runs the same measurement in N processes at once, each parsing every file
(no work is shared and nothing is sent between them), and alternates that with one process
alone. What one process's CPU seconds grow by when another runs beside it is what the machine
charges for a second busy core, whatever the program (issue 20's two workers pay it too).

    .venv/bin/python -m benchmarks.speed.parse_cpu [--package django==5.1.4] [--runs 3] \
        [--together 2 --rounds 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.languages.python.parser import PythonParser


def measure(root: Path, runs: int) -> dict[str, Any]:
    files = [(str(p.relative_to(root)), p.read_bytes()) for p in sorted(root.rglob("*.py"))]
    parser = PythonParser()
    seconds = []
    for _ in range(runs):
        started = time.process_time()
        for path, source in files:
            parser.parse(
                path=path,
                module=path.removesuffix(".py").replace("/", "."),
                is_package=path.endswith("__init__.py"),
                source=source,
                sha256="",
            )
        seconds.append(round(time.process_time() - started, 2))
    return {
        "files": len(files),
        "cpu_seconds": seconds,
        "best_cpu_seconds": min(seconds),
        "load_average": os.getloadavg(),
    }


def _one_copy(root: str, runs: int) -> float:
    return float(measure(Path(root), runs)["best_cpu_seconds"])


def together(root: Path, copies: int, rounds: int, runs: int) -> dict[str, Any]:
    """Alternate one process alone with `copies` processes at once, `rounds` times each."""
    context = multiprocessing.get_context("spawn")  # fresh interpreters, nothing inherited
    alone: list[float] = []
    beside: list[float] = []
    walls: dict[str, list[float]] = {"alone": [], "together": []}
    for _ in range(rounds):
        for label, count, sink in (("alone", 1, alone), ("together", copies, beside)):
            started = time.perf_counter()
            with context.Pool(count) as pool:
                sink.extend(pool.starmap(_one_copy, [(str(root), runs)] * count))
            walls[label].append(round(time.perf_counter() - started, 1))
    return {
        "copies": copies,
        "cpu_seconds_alone": alone,
        "cpu_seconds_together": beside,
        "wall_seconds": walls,
        "cpu_growth_together": round(statistics.median(beside) / statistics.median(alone), 3),
        "load_average_after": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--together", type=int, default=0, metavar="N")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    name, version = parse_spec(args.package)
    root = extract_sdist(name, version, download_sdist(name, version))
    result: dict[str, Any] = {"package": args.package}
    if args.together:
        result["together"] = together(root, args.together, args.rounds, args.runs)
    else:
        result.update(measure(root, args.runs))
    text = json.dumps(result, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
