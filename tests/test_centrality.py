"""PageRank and degrees: rounded so that an incremental run rewrites few node statistics."""

from __future__ import annotations

import random

from graphrag_code.ingest.centrality import centrality


def _graph(size: int, seed: int = 7) -> tuple[list[str], list[tuple[str, str]]]:
    rng = random.Random(seed)
    nodes = [f"n{i}" for i in range(size)]
    edges = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(size * 3)]
    return nodes, edges


def test_ranks_sum_to_one_and_degrees_count_distinct_edges() -> None:
    scores = centrality(["a", "b", "c"], [("a", "b"), ("a", "b"), ("b", "c"), ("c", "x")])
    assert abs(sum(rank for rank, _, _ in scores.values()) - 1.0) < 0.01
    assert scores["a"][1:] == (0, 1)  # the duplicate edge counts once
    assert scores["b"][1:] == (1, 1)
    assert scores["c"][1:] == (1, 0)  # the edge to a node outside `nodes` is ignored
    assert scores["c"][0] > scores["b"][0] > scores["a"][0]


def test_one_new_node_changes_few_rounded_ranks() -> None:
    nodes, edges = _graph(20_000)
    before = centrality(nodes, edges)
    after = centrality([*nodes, "new"], edges)
    changed = sum(1 for node in nodes if before[node] != after[node])
    assert changed < len(nodes) * 0.05
    # unrounded, every rank moves: the rounding is what keeps the rewrite small
    exact_before = centrality(nodes, edges, digits=12)
    exact_after = centrality([*nodes, "new"], edges, digits=12)
    assert sum(1 for n in nodes if exact_before[n] != exact_after[n]) > len(nodes) * 0.9
