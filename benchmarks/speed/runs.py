"""What the speed scripts on one small repository share: the package they measure by
default (flask's), how a run's result is reported, and a private server ready for an indexer
run in a child process. Imports stay inside the functions: `fixed_costs` times the package's
own imports."""

from __future__ import annotations

import argparse
import json
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphrag_code.graph.client import Neo4jClient

__all__ = ["arguments", "flask_package", "indexing_server", "report"]


def arguments(doc: str | None, rounds: int) -> argparse.ArgumentParser:
    """A script's arguments (more may be added): the package to measure (`flask_package`
    when none is given), `--rounds` and `--json` (where to write the whole result)."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--json", type=Path)
    return parser


def flask_package(path: Path | None) -> Path:
    """The path given, else flask 3.0.3's `src/flask` from its sdist (downloaded once)."""
    if path is not None:
        return path
    from benchmarks.oracles.packages import download_sdist, extract_sdist

    return extract_sdist("flask", "3.0.3", download_sdist("flask", "3.0.3")) / "src" / "flask"


def report(result: dict[str, Any], out: Path | None) -> None:
    """Print a run's result but its rounds; write all of it to `out` as JSON."""
    print(json.dumps({k: v for k, v in result.items() if k != "rounds"}, indent=2))
    if out:
        out.write_text(json.dumps(result, indent=2) + "\n")


def indexing_server(stack: ExitStack, prefix: str) -> tuple[Neo4jClient, int, dict[str, str], Path]:
    """A private server with the schema in place, closed with `stack`: its client, its
    process id (for its CPU), the environment a child indexer reaches it with (this
    PYTHONPATH, no other NEO4J_ settings) and a temporary folder named by `prefix`."""
    import os
    import tempfile

    from benchmarks.common.server import endpoint_env, private_server
    from benchmarks.speed.peers import _quiet_env
    from graphrag_code.graph.client import Neo4jClient
    from graphrag_code.graph.schema import SchemaConfig, ensure_schema

    server, endpoint = stack.enter_context(private_server())
    client = stack.enter_context(Neo4jClient(endpoint))
    tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=prefix)))
    ensure_schema(client, SchemaConfig())
    pid = server.status().pid
    assert pid is not None
    path = {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    return client, pid, {**_quiet_env(), **endpoint_env(endpoint), **path}, tmp
