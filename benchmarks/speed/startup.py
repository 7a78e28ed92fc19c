"""What a command pays before its work (issue 56, stop 64: start-up <= 0.5 CPU s): for
`--help`, `callers`, `search` and `index` (nothing changed since the last run), the modules
the command imported (recorded at its end), the CPU a fresh interpreter spends importing
exactly those (the least of `--repeat`), the bare interpreter's, and the command's whole CPU.
`--root` measures another checkout (its package first on `PYTHONPATH`), so the same machine
and minute compare two versions: run it twice, alternating, on a loaded machine.

    .venv/bin/python -m benchmarks.speed.startup [--root PATH] [--repeat 5] [--json out.json]
        (NEO4J_URI when set, else a private server; flask 3.0.3 `src/flask` is indexed first)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import SRC_DIR

ROOT = Path(__file__).resolve().parents[2]
FLASK = SRC_DIR / "flask-3.0.3" / "src" / "flask"
REPO = "startupflask"
HEAVY = frozenset(
    {"numpy", "onnxruntime", "tokenizers", "tree_sitter", "watchfiles", "llama_index", "openai"}
)

# the command's run in-process; its modules and exit code written to argv[1]
_PROBE = """
import contextlib, io, json, sys
from graphrag_code.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[2:])
    except SystemExit as stop:
        code = stop.code
with open(sys.argv[1], "w") as f:
    json.dump({"code": code, "modules": list(sys.modules),
               "package": sys.modules["graphrag_code"].__file__}, f)
"""
# importing exactly the command's modules: a package the command never imported is refused
# (as it was absent), so that an optional import it skipped is skipped here too (the Neo4j
# driver's numpy, which the CLI refuses it: 0.06-0.08 s counted in stop 64's first figures)
_IMPORT = """
import importlib, sys, time
names = sys.argv[1:]
tops = {name.split(".")[0] for name in names} | set(sys.modules)
class Absent:
    def find_spec(self, name, path=None, target=None):
        if "." not in name and name not in tops:
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Absent())
start = time.process_time()
for name in names:
    try:
        importlib.import_module(name)
    except Exception:
        pass
print(time.process_time() - start)
"""


def commands(flask: Path) -> dict[str, list[str]]:
    return {
        "help": ["--help"],
        "callers": ["callers", "flask.app.Flask.wsgi_app", "--repo", REPO],
        "search": ["search", "how are blueprints registered", "--repo", REPO],
        "index": ["index", str(flask), "--repo", REPO, "--no-embeddings"],
    }


def _child_cpu(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """CPU seconds (user + system) of one child process, and its stdout. `cwd`: the checkout
    measured (`python -c` imports from its working folder first)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, done.stdout


def measure(root: Path, argv: list[str], env: dict[str, str], repeat: int) -> dict[str, Any]:
    env = {**env, "PYTHONPATH": str(root)}
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        whole = [
            _child_cpu([sys.executable, "-c", _PROBE, out.name, *argv], env, root)[0]
            for _ in range(repeat)
        ]
        found = json.loads(Path(out.name).read_text())
    assert found["package"].startswith(str(root)), f"measured {found['package']}, not {root}"
    baseline = set(
        json.loads(
            subprocess.run(
                [sys.executable, "-c", "import json, sys; print(json.dumps(list(sys.modules)))"],
                env=env, capture_output=True, text=True, check=True, cwd=root,
            ).stdout
        )
    )  # fmt: skip
    names = [n for n in found["modules"] if n not in baseline and n not in ("__main__",)]
    imports = [
        float(subprocess.run(
            [sys.executable, "-c", _IMPORT, *names], env=env, capture_output=True, text=True,
            check=True, cwd=root,
        ).stdout)
        for _ in range(repeat)
    ]  # fmt: skip
    bare = [_child_cpu([sys.executable, "-c", "pass"], env, root)[0] for _ in range(repeat)]
    ours = sorted({n.split(".")[1] for n in names if n.startswith("graphrag_code.")})
    return {
        "exit": found["code"],
        "modules": len(names),
        "import_cpu_s": round(min(imports), 3),
        "interpreter_cpu_s": round(min(bare), 3),
        "startup_cpu_s": round(min(imports) + min(bare), 3),
        "command_cpu_s": round(min(whole), 3),
        "heavy": sorted({n.split(".")[0] for n in names} & HEAVY),
        "package_parts": ours,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    from benchmarks.common.server import private_server

    if args.root.resolve() == ROOT:
        # compiled first, as an installed package is: with PYTHONDONTWRITEBYTECODE set (this
        # machine's sessions) every command compiled every module again, 0.1-0.2 CPU s
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "graphrag_code")],
                       check=True, capture_output=True)  # fmt: skip
    with contextlib.ExitStack() as stack:
        env = dict(os.environ)
        if not env.get("NEO4J_URI"):
            _server, endpoint = stack.enter_context(private_server())
            password = endpoint.password.get_secret_value() if endpoint.password else ""
            env.update(
                NEO4J_URI=endpoint.uri, NEO4J_USERNAME=endpoint.username, NEO4J_PASSWORD=password
            )
        runs = commands(FLASK)
        subprocess.run(
            [sys.executable, "-c", _PROBE, os.devnull, *runs["index"]],
            env={**env, "PYTHONPATH": str(args.root)}, check=True, cwd=args.root,
        )  # fmt: skip
        measured = {
            name: measure(args.root.resolve(), argv, env, args.repeat)
            for name, argv in runs.items()
        }
    result = {"root": str(args.root), "load_average": os.getloadavg(), "commands": measured}
    for name, row in measured.items():
        print(f"{name:8s} start-up {row['startup_cpu_s']:.3f} CPU s (imports "
              f"{row['import_cpu_s']:.3f}, interpreter {row['interpreter_cpu_s']:.3f}); "
              f"the command {row['command_cpu_s']:.3f}; {row['modules']} modules; "
              f"heavy: {', '.join(row['heavy']) or 'none'}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
