"""`graphrag-code --help` starts fast: building the parser loads no engine (issue 55).

What it imports is checked rather than how long it takes, which depends on the machine's
load: the Neo4j driver, the parsers and the rich tables made it take 2.2 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import get_args

from graphrag_code.cli.impact_commands import FAIL_POLICIES
from graphrag_code.impact import FailPolicy

ROOT = Path(__file__).resolve().parents[1]

# heavy third-party packages, and the engine modules that pull them in
HEAVY = (
    "neo4j", "llama_index", "openai", "onnxruntime", "tree_sitter", "mcp", "matplotlib",
    "numpy", "pydantic_settings", "rich.table", "rich.progress", "graphrag_code.codegraph",
    "graphrag_code.graph", "graphrag_code.languages", "graphrag_code.settings",
)  # fmt: skip

_PROBE = """
import contextlib, io, json, sys
from graphrag_code.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        code = main(sys.argv[1:])
    except SystemExit as stop:
        code = stop.code
print(json.dumps({"code": code, "help": out.getvalue(), "modules": sorted(sys.modules)}))
"""


# what a question (`callers`) has no use for: the indexer and the language plug-ins, the
# embedding models' runtimes, the file watcher, LLM clients (issue 56: start-up <= 0.5 CPU s)
NOT_FOR_A_QUESTION = (
    "llama_index", "openai", "onnxruntime", "tokenizers", "numpy", "tree_sitter", "watchfiles",
    "mcp", "pydantic_settings",
    "matplotlib", "graphrag_code.ingest.pipeline", "graphrag_code.ingest.state",
    "graphrag_code.languages.base", "graphrag_code.languages.python",
    "graphrag_code.languages.ecmascript", "graphrag_code.languages.go",
    "graphrag_code.languages.java", "graphrag_code.languages.rust", "graphrag_code.impact",
)  # fmt: skip


def _run_help(*argv: str, **extra_env: str) -> dict[str, object]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        **extra_env,
    }
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60, check=True,
    )  # fmt: skip
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _heavy(modules: object, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    assert isinstance(modules, list)
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy)]


def test_help_imports_no_engine() -> None:
    result = _run_help("--help")
    assert result["code"] == 0
    assert "callers" in str(result["help"])
    assert _heavy(result["modules"]) == []


def test_a_commands_help_imports_no_engine() -> None:
    result = _run_help("diff", "--help")
    assert result["code"] == 0
    assert "untested-callers" in str(result["help"])
    assert _heavy(result["modules"]) == []


def test_the_fail_policies_offered_are_the_engines() -> None:
    assert get_args(FailPolicy) == FAIL_POLICIES


def test_a_question_imports_neither_the_indexer_nor_the_models() -> None:
    """`callers` runs to its connection (refused here: nothing listens on port 9) having
    imported what asking needs, not the indexer, the plug-ins or the embedders' runtimes."""
    result = _run_help("callers", "flask.Flask", NEO4J_URI="bolt://127.0.0.1:9")
    assert result["code"] != 0
    assert _heavy(result["modules"], NOT_FOR_A_QUESTION) == []


def test_the_indexer_imports_numpy_only_to_rank() -> None:
    """`index` loads the pipeline; numpy (0.07-0.1 CPU s) waits for the ranking, which a
    rerun with nothing changed never reaches (issue 56). As in a command, the driver's own
    probe for numpy is refused."""
    probe = (
        "import json, sys; from graphrag_code.cli.main import _driver_without_numpy; "
        "_driver_without_numpy(); import graphrag_code.api, graphrag_code.ingest.pipeline; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60, check=True,
    )  # fmt: skip
    modules = json.loads(done.stdout)
    assert "graphrag_code.ingest.centrality" in modules
    assert _heavy(modules, ("numpy",)) == []
