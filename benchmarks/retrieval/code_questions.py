"""Code questions whose answers come from jedi, grimp and docstrings, not from our graph.

On requests, flask and click (pinned sdists): concept questions (a docstring's first sentence,
asked of a copy without docstrings), "What calls X?" (jedi), "What breaks if I change M?"
(grimp), "Where is X defined?" in four spellings. Every ablation (full text, vector, both,
the full hybrid, + centrality prior, a graph-weight sweep, neo4j-graphrag's HybridRetriever)
runs on the same Neo4j indexes with the configured offline embedder (`--embedder`, default
GRAPHRAG_CODE_EMBEDDER).

    .venv/bin/python -m benchmarks.retrieval.code_questions           # ~15-30 min the first time
    .venv/bin/python -m benchmarks.retrieval.code_questions --sample 20 --ablations text hybrid
    .venv/bin/python -m benchmarks.retrieval.code_questions --server configured  # NEO4J_URI / local

By default the run gets a Neo4j server of its own (data kept in benchmarks/cache, so vectors
are computed once): the vector and full-text indexes cover every repository in a database and
the repository filter applies after them, so other repositories stored alongside would change
the candidates each leg sees. `--server configured` uses NEO4J_URI, else the managed local
server. The packages are indexed as repositories `cq-<name>-<version>` and
`cq-<name>-<version>-nodoc`.

Writes benchmarks/results/code_questions.{json,md} (committed), the JSONL run log and the
question sets (not committed). The benchmark itself lives in `harness.code_questions`; this
script fetches the packages, runs the oracles and provides the server.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console

from benchmarks.common.paths import CACHE_DIR, RESULTS_DIR
from benchmarks.oracles import run_all
from benchmarks.oracles.packages import ORACLE_OUT_DIR, fetch, parse_spec
from graphrag_code.api import connect
from graphrag_code.cli.progress import RichProgress
from graphrag_code.embedding import make_embedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.server.endpoints import local_endpoint
from graphrag_code.runtime.server.local import LocalNeo4jServer, free_port
from graphrag_code.settings import Settings, load_settings
from harness.code_questions import (
    ABLATIONS,
    DEFAULT_PACKAGES,
    DEFAULT_SEED,
    PackageSource,
    run_code_benchmark,
)

RESULTS = RESULTS_DIR
SERVER_HOME = CACHE_DIR / "neo4j-code-questions"


def oracle_source(spec: str) -> PackageSource:
    """Fetch `NAME==VERSION` and its oracle outputs; runs the oracles when their JSON is
    missing (jedi takes minutes)."""
    name, version = parse_spec(spec)
    fetched = fetch(name, version)
    base = f"{ORACLE_OUT_DIR}/{name}-{version}"
    calls, imports = Path(f"{base}.calls.json"), Path(f"{base}.imports.json")
    if not calls.is_file() or not imports.is_file():
        run_all.main([f"{name}=={version}"])
    return PackageSource(name, version, fetched.import_root, fetched.package, calls, imports)


@contextmanager
def dedicated_client(
    settings: Settings, console: Console, home: Path = SERVER_HOME
) -> Iterator[Neo4jClient]:
    """A Neo4j server holding only this benchmark's repositories (in `home`), stopped
    afterwards. Unlike `temporary_local_server` its data stays (benchmarks/cache), so reruns
    reuse the vectors."""
    server = LocalNeo4jServer(
        home,
        cache_dir=settings.cache_dir,
        neo4j_version=settings.neo4j_version,
        bolt_port=free_port(),
        http_port=0,
        heap="1g",
        pagecache="256m",
        java_home=settings.java_home,
    )
    console.print(f"starting a dedicated Neo4j in {home}")
    server.start(attached=True)
    try:
        with Neo4jClient(local_endpoint(server)) as client:
            client.verify()
            yield client
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--packages", nargs="+", default=list(DEFAULT_PACKAGES), metavar="NAME==VERSION"
    )
    parser.add_argument("--ablations", nargs="+", choices=list(ABLATIONS), default=None)
    parser.add_argument("--sample", type=int, default=100, help="questions per category")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--server", choices=("dedicated", "configured"), default="dedicated")
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    parser.add_argument("--name", default="code_questions", help="summary file name")
    parser.add_argument("--embedder", help="minilm, bge-small, e5-small (GRAPHRAG_CODE_EMBEDDER)")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    settings = load_settings(embedder=args.embedder)
    with (
        dedicated_client(settings, console)
        if args.server == "dedicated"
        else connect(settings) as client,
        RichProgress(console) as progress,
    ):
        result = run_code_benchmark(
            args.packages,
            output_dir=args.output_dir,
            sources=oracle_source,
            ablations=args.ablations,
            sample=args.sample,
            seed=args.seed,
            client=client,
            settings=settings,
            embedder=make_embedder(settings),
            progress=progress,
            summary_name=args.name,
        )
    print(result.to_markdown())
    console.print(f"wrote {result.summary_json}, {result.summary_md} and {result.run_log}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
