"""A trial of mypyc on the link stage's typed core (issue 56), outside the install: the
package is copied to a temporary folder, the modules named below compiled there, and the
same in-memory parse + link (`ingest.offline.link_repository`, one worker) run in fresh
processes against the pure-Python package and the compiled copy, alternated. Reports the
compile's wall and CPU seconds, each run's CPU seconds, and whether the edges are identical.

    .venv/bin/python -m benchmarks.speed.mypyc_trial [PATH ...] [--rounds 2] [--json out.json]
        (default: flask 3.0.3 `src/flask` and Django 5.1.4's package)
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
    "graphrag_code/languages/python/resolver.py",
    "graphrag_code/languages/python/dispatch.py",
    "graphrag_code/languages/python/receivers.py",
    "graphrag_code/linking/index.py",
)
_CHILD = """
import hashlib, json, sys, time
from graphrag_code.ingest.offline import link_repository
from graphrag_code.languages.python.values import engine
started = time.process_time()
linked = link_repository(sys.argv[1], workers=1)
cpu = time.process_time() - started
rows = sorted(repr(edge) for edge in linked.edges())
digest = hashlib.sha256("\\n".join(rows).encode()).hexdigest()[:16]
compiled = str(engine.__file__).endswith(".so")
print(json.dumps({"cpu_s": round(cpu, 2), "edges": len(rows), "digest": digest,
                  "compiled": compiled}))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compile_copy(into: Path) -> dict[str, Any]:
    """Copy the package into `into` and compile `COMPILED` there with mypyc."""
    shutil.copytree(ROOT / "graphrag_code", into / "graphrag_code", symlinks=False)
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")
    mypyc = Path(sys.executable).parent / "mypyc"
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [str(mypyc), *COMPILED], cwd=into, capture_output=True, text=True, check=False
    )
    result: dict[str, Any] = {
        "modules": len(COMPILED),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    paths = args.paths or [
        SRC_DIR / "flask-3.0.3" / "src" / "flask",
        extract_sdist("django", "5.1.4", download_sdist("django", "5.1.4")) / "django",
    ]
    with tempfile.TemporaryDirectory(prefix="mypyc-trial-") as tmp:
        built = compile_copy(Path(tmp))
        result: dict[str, Any] = {"compile": built, "runs": {}}
        if built["ok"]:
            for path in paths:
                rows: dict[str, list[dict[str, Any]]] = {"pure": [], "mypyc": []}
                for _ in range(args.rounds):  # alternated: the machine's load moves
                    rows["pure"].append(_run(ROOT, path))
                    rows["mypyc"].append(_run(Path(tmp), path))
                    if any("error" in runs[-1] for runs in rows.values()):
                        break
                ok = all("error" not in row for runs in rows.values() for row in runs)
                digests = {row.get("digest") for runs in rows.values() for row in runs}
                result["runs"][str(path)] = {
                    **rows,
                    "cpu_median_s": {
                        k: statistics.median(r["cpu_s"] for r in v) for k, v in rows.items()
                    }
                    if ok
                    else None,
                    "edges_identical": ok and len(digests) == 1,
                }
    text = json.dumps({"load_average": os.getloadavg(), **result}, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
