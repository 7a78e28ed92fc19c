"""A trial of mypyc on the link stage's typed core (issue 56), outside the install: the
package is copied to a temporary folder, the modules named below compiled there, and the
same in-memory parse + link (`ingest.offline.link_repository`, one worker) run in fresh
processes against the pure-Python package and the compiled copy, alternated. Reports the
compile's wall and CPU seconds, each run's CPU seconds (the whole, and the link stage's
alone) and whether the edges are identical.

    .venv/bin/python -m benchmarks.speed.mypyc_trial [PATH ...] [--rounds 2] [--json out.json]
        (default: flask 3.0.3 `src/flask` and Django 5.1.4's package)
    --also MODULE ...   compile more modules (paths, as in COMPILED)
    --keep DIR          compile into DIR and leave it; --compiled DIR: run on it, no compile
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import SRC_DIR, download_sdist, extract_sdist

ROOT = Path(__file__).resolve().parents[2]
# the value domain, call resolution and dispatch: most of the link stage's CPU (stage_profile).
# Not `values/expressions.py`: its `Placed`, a slotted dataclass on the uncompiled `Expr`,
# fails at import once compiled ("attribute '__dict__' of 'type' objects is not writable").
COMPILED = (
    "graphrag_code/languages/python/values/attributes.py",
    "graphrag_code/languages/python/values/budget.py",
    "graphrag_code/languages/python/values/containers.py",
    "graphrag_code/languages/python/values/declared.py",
    "graphrag_code/languages/python/values/engine.py",
    "graphrag_code/languages/python/values/names.py",
    "graphrag_code/languages/python/values/parameters.py",
    "graphrag_code/languages/python/values/reaching.py",
    "graphrag_code/languages/python/values/records.py",
    "graphrag_code/languages/python/values/results.py",
    "graphrag_code/languages/python/values/stdlib.py",
    "graphrag_code/languages/python/calls.py",
    "graphrag_code/languages/python/implicit.py",
    "graphrag_code/languages/python/resolver.py",
    "graphrag_code/languages/python/dispatch.py",
    "graphrag_code/languages/python/receivers.py",
    "graphrag_code/linking/index.py",
)
_CHILD = """
import hashlib, json, sys, time
from graphrag_code.ingest import offline
from graphrag_code.languages.python.values import engine
spent = []
link_parsed = offline.link_parsed
def timed(*args, **kwargs):
    started = time.process_time()
    try:
        return link_parsed(*args, **kwargs)
    finally:
        spent.append(time.process_time() - started)
offline.link_parsed = timed  # the link stage timed apart from the parse
started = time.process_time()
linked = offline.link_repository(sys.argv[1], workers=1)
cpu = time.process_time() - started
rows = sorted(repr(edge) for edge in linked.edges())
digest = hashlib.sha256("\\n".join(rows).encode()).hexdigest()[:16]
compiled = str(engine.__file__).endswith(".so")
print(json.dumps({"cpu_s": round(cpu, 2), "link_cpu_s": round(sum(spent), 2),
                  "edges": len(rows), "digest": digest, "compiled": compiled}))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compile_copy(into: Path, also: tuple[str, ...] = ()) -> dict[str, Any]:
    """Copy the package into `into` and compile `COMPILED` and `also` there with mypyc."""
    shutil.copytree(ROOT / "graphrag_code", into / "graphrag_code", symlinks=False)
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")
    mypyc = Path(sys.executable).parent / "mypyc"
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [str(mypyc), *COMPILED, *also], cwd=into, capture_output=True, text=True, check=False
    )
    result: dict[str, Any] = {
        "modules": len(COMPILED) + len(also),
        "also": list(also),
        "wall_s": round(time.perf_counter() - started, 1),
        "cpu_s": round(_children_cpu() - cpu, 1),
        "ok": done.returncode == 0,
    }
    if done.returncode != 0:
        result["error"] = (done.stdout + done.stderr)[-3000:]
    return result


def _run(package_root: Path, path: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)],
        env=env,
        cwd=package_root,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:  # a compiled module's run-time type check, say: kept as a result
        return {"error": done.stderr[-3000:]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _alternated(copy: Path, path: Path, rounds: int) -> dict[str, Any]:
    """`rounds` runs of each package on `path`, which goes first alternating (the machine's
    load moves), stopping at the first error."""
    rows: dict[str, list[dict[str, Any]]] = {"pure": [], "mypyc": []}
    roots = {"pure": ROOT, "mypyc": copy}
    for round_ in range(rounds):
        for kind in ("pure", "mypyc") if round_ % 2 == 0 else ("mypyc", "pure"):
            rows[kind].append(_run(roots[kind], path))
        if any("error" in runs[-1] for runs in rows.values()):
            break
    ok = all("error" not in row for runs in rows.values() for row in runs)
    digests = {row.get("digest") for runs in rows.values() for row in runs}
    medians = {
        measure: {kind: statistics.median(r[measure] for r in runs) for kind, runs in rows.items()}
        for measure in ("cpu_s", "link_cpu_s")
    }
    return {
        **rows,
        "median_s": medians if ok else None,
        "edges_identical": ok and len(digests) == 1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--keep", type=Path, help="compile into this (new) folder and leave it there"
    )
    parser.add_argument(
        "--compiled", type=Path, help="run against a copy --keep left, without compiling"
    )
    parser.add_argument(
        "--also", nargs="*", default=[], help="more modules to compile (paths, as in COMPILED)"
    )
    args = parser.parse_args()
    paths = [p.resolve() for p in args.paths] or [  # the runs start in the package copies
        SRC_DIR / "flask-3.0.3" / "src" / "flask",
        extract_sdist("django", "5.1.4", download_sdist("django", "5.1.4")) / "django",
    ]
    with tempfile.TemporaryDirectory(prefix="mypyc-trial-") as tmp:
        copy = args.compiled or args.keep or Path(tmp)
        built = (
            {"reused": str(copy), "ok": True}
            if args.compiled
            else compile_copy(copy, tuple(args.also))
        )
        result: dict[str, Any] = {"compile": built, "runs": {}}
        if built["ok"]:
            for path in paths:
                result["runs"][str(path)] = _alternated(copy, path, args.rounds)
    text = json.dumps({"load_average": os.getloadavg(), **result}, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
