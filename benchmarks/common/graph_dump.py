"""One repository's graph as a comparable value: two indexes that should write the same graph
(incremental against clean, one write form against another) compare equal."""

from __future__ import annotations

from typing import Any

from graphrag_code.graph.client import Neo4jClient

__all__ = ["repository_dump"]


def repository_dump(client: Neo4jClient, repo: str) -> dict[str, Any]:
    """Every node, relationship and property of `repo`, and the modules its repository node
    contains."""
    nodes = client.read(
        "MATCH (n:Code {repo: $repo}) RETURN n.id AS id, labels(n) AS labels, "
        "properties(n) AS props",
        {"repo": repo},
    )
    rels = client.read(
        "MATCH (s {repo: $repo})-[r]->(t) RETURN s.id AS s, type(r) AS type, "
        "coalesce(t.id, t.qualified_name) AS t, properties(r) AS props",
        {"repo": repo},
    )
    contains = client.read(
        "MATCH (:Repository {name: $repo})-[:CONTAINS]->(m) RETURN m.id AS id", {"repo": repo}
    )
    return {
        "nodes": sorted(
            (row["id"], sorted(row["labels"]), sorted(row["props"].items())) for row in nodes
        ),
        "rels": sorted(
            (row["s"], row["type"], row["t"], sorted(row["props"].items())) for row in rels
        ),
        "contains": sorted(row["id"] for row in contains),
    }
