"""Per-tier precision of CALLS edges, and issue 50's targets for a held-out package.

Every tier has to earn its place (issue 50): each tier's (caller module, callee) pairs are
judged by jedi, then mypy where jedi gave up, then the call graph of the package's own test
suite where one ran (a pair that ran is right whatever the checkers say). A pair none of them
confirms counts as wrong; the "judged" figure counts only pairs on a line where jedi or mypy
resolved a call of the target's name, since a call neither resolved can be neither confirmed
nor refuted by them. Edge counts are of the linker's CALLS edges (in and out of the package),
as a user sees them, for the ratio of possible to certain edges.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from graphrag_code.model import CERTAIN_TIERS, POSSIBLE_TIERS, Edge, EdgeKind

Pair = tuple[str, str]

#: Issue 50's targets on every held-out package.
CERTAIN_PRECISION_TARGET = 0.97
CERTAIN_RECALL_TARGET = 0.95
POSSIBLE_PRECISION_TARGET = 0.50
POSSIBLE_PER_CERTAIN_TARGET = 1.0


@dataclass
class Score:
    """Our pairs against an oracle's: how many of ours it has, of ours, of its."""

    true_positive: int
    ours: int
    oracle: int

    @property
    def precision(self) -> float:
        return self.true_positive / self.ours if self.ours else 1.0

    @property
    def recall(self) -> float:
        return self.true_positive / self.oracle if self.oracle else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "true_positive": self.true_positive,
            "ours": self.ours,
            "oracle": self.oracle,
        }


def score(ours: set[Any], oracle: set[Any]) -> Score:
    return Score(len(ours & oracle), len(ours), len(oracle))


@dataclass(frozen=True)
class Judges:
    """The confirmed pairs of each judge, strongest chain last."""

    jedi: frozenset[Pair]
    checkers: frozenset[Pair]
    """jedi, then mypy at the sites jedi left unresolved."""
    running: frozenset[Pair] | None = None
    """Pairs the traced test suite ran; None where no runtime oracle is cached."""

    @property
    def chain(self) -> str:
        return "jedi, mypy, running code" if self.running is not None else "jedi, mypy"

    def confirmed(self) -> frozenset[Pair]:
        """Every pair one of the judges confirms."""
        return self.checkers | (self.running or frozenset())


def _ratio(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def tier_score(pairs: set[Pair], judged: set[Pair], judges: Judges) -> dict[str, Any]:
    """Precision of one tier's pairs by each judge in turn; None where the tier is empty."""
    result: dict[str, Any] = {
        "pairs": len(pairs),
        "confirmed": len(pairs & judges.confirmed()),
        "judged_confirmed": len(judged & judges.checkers),
        "precision": _ratio(len(pairs & judges.confirmed()), len(pairs)),
        "precision_jedi": _ratio(len(pairs & judges.jedi), len(pairs)),
        "precision_jedi_mypy": _ratio(len(pairs & judges.checkers), len(pairs)),
        "judged_pairs": len(judged),
        "judged_precision": _ratio(len(judged & judges.checkers), len(judged)),
    }
    if judges.running is not None:
        result["confirmed_by_running_only"] = len((pairs - judges.checkers) & judges.running)
    return result


def edge_counts(edges: Iterable[Edge]) -> Counter[str]:
    """CALLS edges per tier, in and out of the package, implicit calls included."""
    return Counter(
        edge.resolution.value
        for edge in edges
        if edge.kind == EdgeKind.CALLS and edge.resolution is not None
    )


def possible_per_certain(counts: Mapping[str, int]) -> float | None:
    """Possible CALLS edges per certain one (issue 50: at most 1)."""
    certain = sum(counts.get(tier, 0) for tier in CERTAIN_TIERS)
    possible = sum(counts.get(tier, 0) for tier in POSSIBLE_TIERS)
    return round(possible / certain, 3) if certain else None


def targets(result: Mapping[str, Any]) -> dict[str, bool]:
    """Which of issue 50's targets a package's result meets. A possible tier without edges
    meets its target; the ratio is the repository's (the whole sdist, as a user indexes it)."""
    certain = result["certain"]
    met = {
        "certain_precision": certain["precision"] >= CERTAIN_PRECISION_TARGET,
        "certain_recall": certain["recall"] >= CERTAIN_RECALL_TARGET,
    }
    for tier in POSSIBLE_TIERS:
        precision = result["tiers"][tier]["precision"]
        met[f"{tier}_precision"] = precision is None or precision >= POSSIBLE_PRECISION_TARGET
    ratio = result["possible_per_certain_sdist"]
    met["possible_per_certain"] = ratio is None or ratio <= POSSIBLE_PER_CERTAIN_TARGET
    return met


def _cell(score: Mapping[str, Any]) -> str:
    """Precision, judged precision in brackets with the number of pairs."""
    if score["precision"] is None:
        return "–"
    return f"{score['precision']:.3f} ({_number(score['judged_precision'], 3)}; {score['pairs']})"


def markdown(results: list[dict[str, Any]]) -> str:
    """One row per package: set, certain P/R, each tier's precision (judged precision; pairs),
    possible edges per certain one, the targets missed; then a pooled row per set of two or
    more packages."""
    tiers = [*CERTAIN_TIERS, *POSSIBLE_TIERS]
    lines = [
        "| package | set | judges | certain P (judged; pairs) | certain R | "
        + " | ".join(f"{tier} P (judged; pairs)" for tier in tiers)
        + " | possible / certain edges (package) | (sdist) | targets missed |",
        "|---|---|---|---:|---:|" + "---:|" * len(tiers) + "---:|---:|---|",
    ]
    for r in [*results, *pooled_rows(results)]:
        missed = [name for name, ok in r["targets"].items() if not ok]
        lines.append(
            f"| {r['package']} | {r['set']} | {r['certain']['judges']} | "
            f"{_cell(r['certain'])} | {r['certain']['recall']:.3f} | "
            + " | ".join(_cell(r["tiers"][tier]) for tier in tiers)
            + f" | {_number(r['possible_per_certain'])}"
            f" | {_number(r['possible_per_certain_sdist'])} | {', '.join(missed) or 'none'} |"
        )
    return "\n".join(lines)


def _pool_score(scores: list[Mapping[str, Any]]) -> dict[str, Any]:
    """One tier's pairs of several packages as one: precision over all their pairs."""
    pairs = sum(score["pairs"] for score in scores)
    judged = sum(score["judged_pairs"] for score in scores)
    confirmed = sum(score["confirmed"] for score in scores)
    judged_confirmed = sum(score["judged_confirmed"] for score in scores)
    return {
        "pairs": pairs,
        "confirmed": confirmed,
        "precision": _ratio(confirmed, pairs),
        "judged_pairs": judged,
        "judged_confirmed": judged_confirmed,
        "judged_precision": _ratio(judged_confirmed, judged),
    }


def _summed(counts: Iterable[Mapping[str, int]]) -> Counter[str]:
    total: Counter[str] = Counter()
    for count in counts:
        total.update(count)
    return total


def pooled(results: list[dict[str, Any]], set_name: str) -> dict[str, Any]:
    """The packages of one set taken together (issue 50 asks for each tier's precision on the
    held-out set): per tier, all their pairs and the share confirmed; certain recall over all
    the oracles' pairs; possible per certain edges over all their edges. A package's pairs are
    its own (caller module, callee), so pairs of different packages never coincide."""
    members = [r for r in results if r["set"] == set_name]
    certain = [r["certain"] for r in members]
    found = sum(score["recall_found"] for score in certain)
    oracle = sum(score["recall_of"] for score in certain)
    judges = {score["judges"] for score in certain}
    package_edges = _summed(
        {tier: score["edges"] for tier, score in r["tiers"].items()} for r in members
    )
    result: dict[str, Any] = {
        "package": f"all {set_name} ({len(members)} packages)",
        "set": set_name,
        "certain": {
            **_pool_score(certain),
            "recall": round(found / oracle, 4) if oracle else 1.0,
            "recall_found": found,
            "recall_of": oracle,
            "judges": judges.pop() if len(judges) == 1 else "mixed",
        },
        "tiers": {
            tier: {
                "edges": package_edges.get(tier, 0),
                **_pool_score([r["tiers"][tier] for r in members]),
            }
            for tier in [*CERTAIN_TIERS, *POSSIBLE_TIERS]
        },
        "possible_per_certain": possible_per_certain(package_edges),
        "possible_per_certain_sdist": possible_per_certain(
            _summed(r["edges_by_tier_sdist"] for r in members)
        ),
    }
    result["targets"] = targets(result)
    return result


def pooled_rows(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A pooled result for each set of two or more packages, in the order the sets come."""
    sets = list(dict.fromkeys(r["set"] for r in results))
    return [
        pooled(results, name) for name in sets if sum(1 for r in results if r["set"] == name) >= 2
    ]


def _number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"
