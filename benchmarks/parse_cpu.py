"""The parse's CPU in one process: every Python file of a package (default: Django's sdist)
parsed by `PythonParser`, timed with `time.process_time` (the cores are shared, so CPU time
moves less than wall time; alternate runs of two versions to compare them).

    .venv/bin/python -m benchmarks.parse_cpu [--package django==5.1.4] [--runs 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from graphrag_code.parsing.python import PythonParser


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    name, version = parse_spec(args.package)
    result = {
        "package": args.package,
        **measure(extract_sdist(name, version, download_sdist(name, version)), args.runs),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
