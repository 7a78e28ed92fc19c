"""The CPU a managed Neo4j start and stop costs, with the class-data-sharing archive as it is.

Each round starts a `LocalNeo4jServer` in a fresh home, waits until Bolt answers, stops it,
and reads the children's CPU (the launcher JVM) from `getrusage`. The first round on a
machine without an archive writes one at its exit (`runtime/server/class_share.py`); the
rounds after it map that archive. Delete `<cache>/launcher/*/class-share/` to time the
starts without one.

    .venv/bin/python -m benchmarks.speed.server_start --rounds 3
    GRAPHRAG_CODE_NEO4J_VERSION=2026.08.1 .venv/bin/python -m benchmarks.speed.server_start
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from graphrag_code.runtime.server.local import LocalNeo4jServer, free_port
from graphrag_code.settings import load_settings


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_round() -> tuple[float, float]:
    """(seconds until Bolt answered, CPU seconds of the start and the stop)."""
    settings = load_settings()
    home = Path(tempfile.mkdtemp(prefix="server-start-")) / "home"
    server = LocalNeo4jServer(
        home, cache_dir=settings.cache_dir, neo4j_version=settings.neo4j_version,
        bolt_port=free_port(), http_port=free_port(), heap="512m", pagecache="64m",
        tx_log_retention="2 files",
    )  # fmt: skip
    cpu = _children_cpu()
    started = time.monotonic()
    server.start(attached=True)
    ready = time.monotonic() - started
    server.stop()
    return ready, _children_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for number in range(1, args.rounds + 1):
        ready, cpu = one_round()
        print(f"round {number}: ready in {ready:.1f} s; start + stop {cpu:.1f} CPU s")


if __name__ == "__main__":
    main()
