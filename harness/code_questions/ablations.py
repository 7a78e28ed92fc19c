"""The configurations the code-question benchmark compares, on the same indexes: each leg
alone, vector + text, the full hybrid (per-intent weights), a centrality prior, a sweep of
the graph leg's weight and of the candidate depth, and neo4j-graphrag's `HybridRetriever`."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_code.evaluation.ablation import Ablation, select

__all__ = ["ABLATIONS", "DEFAULT_ABLATIONS", "choose_ablations"]

ABLATIONS: dict[str, Ablation] = {
    ablation.name: ablation
    for ablation in (
        Ablation("text", legs=("text",)),
        Ablation("vector", legs=("vector",)),
        Ablation("vector+text", legs=("vector", "text")),
        Ablation("hybrid"),
        Ablation("hybrid+prior", centrality_prior=1.0),
        Ablation("graph=0.25", graph_weight=0.25),
        Ablation("graph=1", graph_weight=1.0),
        Ablation("graph=4", graph_weight=4.0),
        Ablation("depth=20", candidates=20),
        Ablation("depth=50", candidates=50),
        Ablation("neo4j-graphrag", legs=("vector", "text"), baseline=True),
    )
}
DEFAULT_ABLATIONS = tuple(ABLATIONS)


def choose_ablations(names: Sequence[str] | None) -> list[Ablation]:
    """The named ablations, in the order given; all of them without names."""
    return list(select(ABLATIONS.values(), names or DEFAULT_ABLATIONS))
