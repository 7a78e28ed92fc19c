"""One retrieval configuration to compare: which legs run, how they are weighted and how deep.

Every benchmark compares the same kinds of configuration — each leg alone, two legs fused, the
full hybrid, a centrality prior, the graph leg's weight, the candidate depth — so one type
describes them all and turns itself into the `SearchOptions` of one question.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import ConfigurationError
from ..retrieval.question import analyse
from ..retrieval.search import DEFAULT_WEIGHTS, LEGS, SearchOptions
from ..retrieval.units import FileRanking, Unit

__all__ = ["Ablation", "select"]


@dataclass(frozen=True)
class Ablation:
    """A named configuration. `graph_weight` None keeps the per-intent weights; a subset of
    the legs fuses them with equal weights; `candidates` None keeps `SearchOptions`' depth."""

    name: str
    legs: tuple[str, ...] = LEGS
    graph_weight: float | None = None
    centrality_prior: float = 0.0
    candidates: int | None = None
    """Candidates per leg before fusion."""
    baseline: bool = False
    """Answered by an external baseline retriever the benchmark supplies, not by `search()`
    (`options` then does not apply)."""
    unit: Unit = Unit.SYMBOL
    """What `search()` ranks: symbols, or files / packages by their symbols' evidence."""
    files: FileRanking | None = None
    """How files are ranked when `unit` is not SYMBOL (None: the defaults)."""

    def options(self, question: str, *, k: int) -> SearchOptions:
        """The search options for `question` (analysed only to weight the graph leg)."""
        weights = None
        if self.graph_weight is not None:
            weights = {**DEFAULT_WEIGHTS[analyse(question).intent], "graph": self.graph_weight}
        return SearchOptions(
            k=k, legs=self.legs, weights=weights, centrality_prior=self.centrality_prior,
            candidates_per_leg=self.candidates or SearchOptions().candidates_per_leg,
        )  # fmt: skip


def select(known: Iterable[Ablation], names: Sequence[str]) -> tuple[Ablation, ...]:
    """The ablations of `known` named in `names`, in the order given."""
    by_name = {ablation.name: ablation for ablation in known}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise ConfigurationError(f"unknown ablations {unknown}; choose from {list(by_name)}")
    return tuple(by_name[name] for name in names)
