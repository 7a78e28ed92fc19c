"""Sources built to exhaust the parser (issue 57, faults 4 and 7): the time to parse and link
each, whether its records pickle (what the state writer and the parse pool do with them), and
the issue it is kept with.

    .venv/bin/python -m benchmarks.speed.hostile_sources [--json PATH]

The files are written to a temporary folder: 500 stacked decorators, a 400 KB `return
1+1+…`, `g(g(…))` 20,000 deep in Python (60 KB) and in TypeScript (on 40,000 lines; one line
that long is skipped as minified). Before issue 57: a crash while pickling, 255 s, 49 s.
"""

from __future__ import annotations

import argparse
import json
import pickle
import tempfile
import time
from pathlib import Path

from graphrag_code.ingest.offline import link_repository
from graphrag_code.ingest.state import compact

SOURCES = {
    "decorators.py": "def d(f):\n    return f\n\n\n" + "@d\n" * 500 + "def g():\n    return 1\n",
    "plus.py": "def f():\n    return " + "+".join(["1"] * 200_000) + "\n",
    "nested.py": "def g(x):\n    return x\n\n\ny = " + "g(" * 20_000 + "1" + ")" * 20_000 + "\n",
    "nested.ts": "function g(x: number) {\n  return x;\n}\nconst y =\n"
    + "g(\n" * 20_000
    + "1"
    + ")\n" * 20_000
    + ";\n",
}


def measure(name: str, text: str) -> dict[str, object]:
    """Parse and link one hostile file alone (its own folder), and pickle its records."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / name).write_text(text)
        started = time.perf_counter()
        linked = link_repository(folder)
        seconds = time.perf_counter() - started
        try:
            for parsed in linked.parsed.values():
                pickle.dumps(compact(parsed))
            pickles = True
        except RecursionError:
            pickles = False
    return {
        "file": name,
        "bytes": len(text.encode()),
        "seconds": round(seconds, 2),
        "pickles": pickles,
        "skipped": [s.reason for s in linked.skipped],
        "issues": [i.message for f in linked.parsed.values() for i in f.issues],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the rows here too")
    args = parser.parse_args()
    rows = [measure(name, text) for name, text in SOURCES.items()]
    for row in rows:
        print(
            f"{row['file']}: {row['bytes']:,} bytes, {row['seconds']} s, "
            f"{'pickles' if row['pickles'] else 'RecursionError while pickling'}; "
            f"skipped {row['skipped']}; issues {row['issues']}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
