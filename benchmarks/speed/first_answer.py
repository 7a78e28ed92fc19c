"""Time to first answer: how soon a concurrent `callers` answers while `index` still embeds.

Issue 56's goal: on a repository with embeddings, the first complete answer comes at most 5 s
after the no-embeddings index time. Against a private Neo4j server (or NEO4J_URI), in rounds:

* `graphrag-code index PATH --embed later --full`: the no-embeddings wall time (asked
  `callers` as often as the other, so the questions' load falls on both; its own first answer
  is recorded too);
* `graphrag-code index PATH --full` (embeddings on) started in a subprocess while this
  process asks `callers SYMBOL` every `--every` seconds through the API; the first answer
  that has callers and no warning (no `incomplete`: the run marked the repository complete)
  gives the time to first answer, measured from the start of `index`. At that moment one
  `graphrag-code callers SYMBOL --json` subprocess confirms that the CLI answers too
  (warnings empty), and its own wall time is recorded. The index runs to its end (the total
  with embeddings) unless `--stop-after-answer`, which interrupts it (SIGINT) and checks that
  the repository stays complete with partial vectors (`graphrag-code embed` resumes).

Both indexes are full runs of CLI subprocesses, each under its own repository name, so start-up
and the server's writes count as a user sees them; even rounds run the embedding index first
(round 1 runs on a cold server: a warm-up). The machine is shared: each round records the load
average, to print beside the figures.

    .venv/bin/python -m benchmarks.speed.first_answer [--path benchmarks/cache/src/rich-13.9.4]
        [--symbol Console.print] [--rounds 1] [--every 0.5] [--stop-after-answer]
        [--json benchmarks/results/first_answer.json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common.server import endpoint_for_run
from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import GraphRAGCodeError
from graphrag_code.graph import GraphReader
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.settings import load_settings

DEFAULT_PATH = Path("benchmarks/cache/src/rich-13.9.4")


def _env(endpoint: Neo4jEndpoint) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        NEO4J_URI=endpoint.uri, NEO4J_USERNAME=endpoint.username, NEO4J_DATABASE=endpoint.database
    )
    auth = endpoint.auth()
    if auth is not None:
        env["NEO4J_PASSWORD"] = auth[1]
    return env


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "graphrag_code.cli.main", *args]


def _interruptible() -> None:
    """Ctrl-C reaches the child as KeyboardInterrupt even when this script runs in the
    background (`cmd &` starts it with SIGINT ignored, which a child would inherit)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _no_embeddings(
    path: Path, repo: str, env: dict[str, str], client: Neo4jClient, symbol: str, every: float
) -> dict[str, Any]:
    """The `--embed later` index's wall time, asked `callers` as often as the other one (the
    questions' load falls on both)."""
    command = _cli("index", str(path), "--repo", repo, "--full", "--embed", "later", "--json")
    started = time.perf_counter()
    index = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first: float | None = None
    while index.poll() is None:
        if first is None and _answer(client, symbol, repo):
            first = time.perf_counter() - started
        _wait(index, every)
    if index.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({index.returncode})")
    wall = time.perf_counter() - started
    return {
        "no_embeddings_s": round(wall, 2),
        "no_embeddings_first_answer_s": round(first, 2) if first is not None else None,
    }


def _wait(process: subprocess.Popen[bytes], seconds: float) -> None:
    """Sleep `seconds`, or less if `process` ends sooner (its wall time stays exact)."""
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return


def _answer(client: Neo4jClient, symbol: str, repo: str) -> bool:
    """Whether `callers symbol` answers now with callers and without any warning, as a new
    process would (a fresh `CodeGraph`: one held across questions reuses its completeness
    reading for `COMPLETENESS_TTL_S`, 10 s, which would delay the answer seen here)."""
    graph = CodeGraph(load_settings(), client=client)
    try:
        result = graph.related("callers", symbol, repo=repo)
    except GraphRAGCodeError:  # not in the graph yet
        return False
    return bool(result.certain or result.possible) and not result.warnings


def _with_embeddings(
    path: Path,
    repo: str,
    env: dict[str, str],
    client: Neo4jClient,
    symbol: str,
    every: float,
    stop_after_answer: bool,
) -> dict[str, Any]:
    command = _cli("index", str(path), "--repo", repo, "--full", "--json")
    started = time.perf_counter()
    index = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        preexec_fn=_interruptible,
    )  # fmt: skip
    first: float | None = None
    cli: dict[str, Any] = {}
    while index.poll() is None and first is None:
        if _answer(client, symbol, repo):
            first = time.perf_counter() - started
            asked = time.perf_counter()
            said = subprocess.run(
                _cli("callers", symbol, "--repo", repo, "--json"),
                env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            answer = json.loads(said.stdout) if said.returncode == 0 else {}
            cli = {
                "rc": said.returncode,
                "seconds": round(time.perf_counter() - asked, 2),
                "warnings": answer.get("warnings"),
                "still_indexing": index.poll() is None,
            }
        else:
            _wait(index, every)
    row: dict[str, Any] = {"first_answer_s": round(first, 2) if first else None, "cli": cli}
    if stop_after_answer and index.poll() is None:
        index.send_signal(signal.SIGINT)
        index.wait()
        left = GraphReader(client).completeness([repo])
        row["interrupted"] = [
            {"status": c.status, "nodes": c.nodes, "vectors": c.vectors} for c in left
        ]
        return row
    out, _ = index.communicate()
    row["total_s"] = round(time.perf_counter() - started, 2)
    if index.returncode == 0:
        report = json.loads(out)
        row["embedded"], row["embed_s"] = report["embedded"], report["seconds"].get("embed")
        row["symbols"] = report["symbols"]
    if first is None:  # the index ended before an answer came: ask once more
        row["first_answer_s"] = row["total_s"] if _answer(client, symbol, repo) else None
    return row


def _embedded(
    args: argparse.Namespace, n: int, env: dict[str, str], client: Neo4jClient
) -> dict[str, Any]:
    return _with_embeddings(
        args.path, f"fa-embed-{n}", env, client, args.symbol, args.every, args.stop_after_answer
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--symbol", default="Console.print", help="whose callers to ask for")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--every", type=float, default=0.5, help="seconds between questions")
    parser.add_argument("--stop-after-answer", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not args.path.is_dir():
        parser.error(f"{args.path} is not a folder")
    rows: list[dict[str, Any]] = []
    with endpoint_for_run() as endpoint, Neo4jClient(endpoint) as client:
        env = _env(endpoint)
        for n in range(args.rounds):
            row: dict[str, Any] = {"round": n + 1, "load_before": _load()}
            if n % 2:  # interleaved: rounds 2, 4, ... run the embedding index first
                row.update(_embedded(args, n, env, client))
            row.update(
                _no_embeddings(args.path, f"fa-plain-{n}", env, client, args.symbol, args.every)
            )
            if not n % 2:
                row.update(_embedded(args, n, env, client))
            first = row["first_answer_s"]
            row["over_no_embeddings_s"] = (
                round(first - row["no_embeddings_s"], 2) if first is not None else None
            )
            row["load_after"] = _load()
            rows.append(row)
            print(json.dumps(row), flush=True)
    result = {"path": str(args.path), "symbol": args.symbol, "rounds": rows}
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    command = " ".join(["python -m benchmarks.speed.first_answer", *sys.argv[1:]])
    print(f"\n`{command}`")


if __name__ == "__main__":
    main()
