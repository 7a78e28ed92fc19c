"""The CPU of `diff`'s parse: both sides of each changed Python file of a git working tree
(HEAD and the tree), parsed in full as the index does and with `symbols_only=True` as `diff`
does, the two alternating in one process (`time.process_time`: the cores are shared). It
checks that both give `diff` the same records: symbols, text, docstring and size.

    .venv/bin/python -m benchmarks.speed.diff_parse --work DIR [--rounds 20] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.model import ParsedFile

Side = tuple[str, str, bytes]  # path, module, source


def _sides(work: Path) -> list[Side]:
    changed = subprocess.run(
        ["git", "-C", str(work), "diff", "--name-only", "HEAD", "--", "*.py"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    sides: list[Side] = []
    for path in changed:
        module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        old = subprocess.run(
            ["git", "-C", str(work), "show", f"HEAD:{path}"], capture_output=True, check=True
        ).stdout
        sides += [(path, module, old), (path, module, (work / path).read_bytes())]
    return sides


def _parse(parser: PythonParser, sides: list[Side], only: bool) -> tuple[float, list[ParsedFile]]:
    started = time.process_time()
    parsed = [
        parser.parse(
            path=path,
            module=module,
            is_package=path.endswith("__init__.py"),
            source=source,
            sha256="",
            symbols_only=only,
        )
        for path, module, source in sides
    ]
    return time.process_time() - started, parsed


def _read_by_diff(parsed: ParsedFile) -> tuple[object, ...]:
    return (parsed.path, parsed.module, parsed.code, parsed.docstring, parsed.loc, parsed.symbols)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sides = _sides(args.work)
    python = PythonParser()
    seconds: dict[str, list[float]] = {"full": [], "symbols_only": []}
    last: dict[str, list[ParsedFile]] = {}
    for number in range(args.rounds):
        for only in (False, True) if number % 2 == 0 else (True, False):
            name = "symbols_only" if only else "full"
            cpu, last[name] = _parse(python, sides, only)
            seconds[name].append(cpu)
    if [_read_by_diff(p) for p in last["full"]] != [_read_by_diff(p) for p in last["symbols_only"]]:
        raise SystemExit("the symbols-only parse gives diff other records than the full one")
    result = {
        "files": sorted({path for path, _, _ in sides}),
        "rounds": args.rounds,
        **{
            name: {
                "median": round(statistics.median(values), 3),
                "min": round(min(values), 3),
                "max": round(max(values), 3),
            }
            for name, values in seconds.items()
        },
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
