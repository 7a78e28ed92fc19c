"""Two indexer processes on two repositories at once, against one server, build the same graph
as one after the other (issue 20, "Beyond one machine": an ingest split by repository across
machines writing to the same server or cluster).

Each process is the real CLI (`graphrag-code index`) in its own interpreter, with its own
incremental state, connected through `NEO4J_URI` as a second machine would be. The search
indexes are dropped first, so both processes also create the shared schema at the same moment
(the race `graph/schema.py` tolerates). The two repositories are the cross-repository fixture:
the service's edges into the library are linked by whichever process finishes last.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint

from .conftest import drop_search_indexes, wipe

FIXTURES = Path(__file__).parent / "fixtures"
REPOSITORIES = {
    "service": FIXTURES / "crossrepo" / "service",
    "billing_lib": FIXTURES / "crossrepo" / "billing_lib",
    "shop": FIXTURES / "shop",
}
# what differs between two runs of the same input: times, run tokens, where the state lives
_VOLATILE = {"indexed_at", "started_at", "run", "state_token", "root"}


def _environment(endpoint: Neo4jEndpoint, cache: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NEO4J_URI": endpoint.uri,
        "NEO4J_USERNAME": endpoint.username,
        "NEO4J_PASSWORD": endpoint.password.get_secret_value(),
        "NEO4J_DATABASE": endpoint.database,
        "GRAPHRAG_CODE_CACHE_DIR": str(cache),
    }


def _index(repo: str, endpoint: Neo4jEndpoint, cache: Path) -> subprocess.Popen[str]:
    command = [
        str(Path(sys.executable).parent / "graphrag-code"), "index", str(REPOSITORIES[repo]),
        "--repo", repo, "--no-embeddings", "--json",
    ]  # fmt: skip
    return subprocess.Popen(
        command,
        env=_environment(endpoint, cache),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> None:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, f"indexer failed ({process.returncode}):\n{err}\n{out}"


def snapshot(client: Neo4jClient) -> dict[str, Any]:
    """Every node and relationship with its properties, the volatile ones left out."""
    nodes = client.read(
        "MATCH (n) WHERE n:Code OR n:External OR n:Repository "
        "RETURN coalesce(n.id, n.qualified_name, n.name) AS key, labels(n) AS labels, "
        "properties(n) AS props"
    )
    rels = client.read(
        "MATCH (s)-[r]->(t) "
        "RETURN coalesce(s.id, s.name) AS s, type(r) AS type, "
        "coalesce(t.id, t.qualified_name) AS t, properties(r) AS props"
    )

    def clean(props: dict[str, Any]) -> list[tuple[str, str]]:
        return sorted((k, repr(v)) for k, v in props.items() if k not in _VOLATILE)

    return {
        "nodes": sorted((row["key"], sorted(row["labels"]), clean(row["props"])) for row in nodes),
        "rels": sorted((row["s"], row["type"], row["t"], clean(row["props"])) for row in rels),
    }


def test_two_indexers_at_once_build_the_graph_of_one_after_the_other(
    neo4j: Neo4jClient, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    drop_search_indexes(neo4j)
    together = [_index(repo, neo4j_endpoint, tmp_path / "together") for repo in REPOSITORIES]
    for process in together:
        _finish(process)
    concurrent = snapshot(neo4j)
    crossed = neo4j.read(
        "MATCH (:Code {repo: 'service'})-[r]->(:Code {repo: 'billing_lib'}) RETURN count(r) AS n"
    )
    assert crossed[0]["n"] == 7  # the service's imports, calls and base class in the library

    wipe(neo4j)
    for repo in REPOSITORIES:
        _finish(_index(repo, neo4j_endpoint, tmp_path / "one_by_one"))
    assert snapshot(neo4j) == concurrent
