"""The code-question benchmark's results: scores per package, ablation and category, as the
summary JSON and the Markdown report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphrag_code.evaluation.metrics import Summary

from .callers import MAX_CALLERS
from .impact import MAX_IMPORTERS
from .questions import Category
from .scoring import METRIC_NAMES

__all__ = ["CodeBenchmarkResult"]


def _commit(config: Mapping[str, Any]) -> str:
    git = config.get("git") or {}
    commit = str(git.get("commit") or "unknown")[:10]
    return f"{commit}, with uncommitted changes" if git.get("dirty") else commit


def _cell(summary: Summary | None, metrics: Sequence[str]) -> str:
    if summary is None:
        return "-"
    return " / ".join(f"{summary.means.get(m, 0.0):.2f}" for m in metrics)


def _pivot(
    title: str,
    rows: Sequence[tuple[str, Mapping[str, Summary]]],
    ablations: Sequence[str],
    metrics: Sequence[str],
) -> list[str]:
    """Rows x ablations, each cell `metrics` joined by " / "."""
    lines = [
        f"| {title} | n | " + " | ".join(ablations) + " |",
        "|---|---:|" + "---:|" * len(ablations),
    ]
    for label, by_ablation in rows:
        n = next((s.queries for s in by_ablation.values()), 0)
        cells = " | ".join(_cell(by_ablation.get(a), metrics) for a in ablations)
        lines.append(f"| {label} | {n} | {cells} |")
    return lines


@dataclass(frozen=True)
class CodeBenchmarkResult:
    """Scores per package, ablation and category, pooled scores, and where it was written."""

    packages: tuple[str, ...]
    ablations: tuple[str, ...]
    scores: Mapping[str, Mapping[str, Mapping[str, Summary]]]  # package -> ablation -> cat
    pooled: Mapping[str, Mapping[str, Summary]]  # ablation -> category ("all" included)
    variants: Mapping[str, Mapping[str, Summary]]  # ablation -> "category/variant"
    latency_ms: Mapping[str, Mapping[str, float]]  # ablation -> p50/p95 of the search call
    baseline_failures: Mapping[str, int]  # package -> failed neo4j-graphrag queries
    vector_leg: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """package -> mean in-repository hits of the vector leg, and the share of questions where
    it came back short of `candidates_per_leg` (other repositories took the candidates)."""
    database: Sequence[Mapping[str, Any]] = ()  # nodes and vectors per stored repository
    config: Mapping[str, Any] = field(default_factory=dict)
    run_log: Path | None = None
    summary_json: Path | None = None
    summary_md: Path | None = None

    def to_json(self) -> dict[str, Any]:
        def table(rows: Mapping[str, Summary]) -> dict[str, Any]:
            return {
                name: {
                    "n": s.queries,
                    **{m: round(s.means.get(m, 0.0), 4) for m in METRIC_NAMES},
                }
                for name, s in rows.items()
            }

        return {
            "config": dict(self.config),
            "packages": list(self.packages),
            "ablations": list(self.ablations),
            "pooled": {a: table(rows) for a, rows in self.pooled.items()},
            "variants": {a: table(rows) for a, rows in self.variants.items()},
            "per_package": {
                p: {a: table(rows) for a, rows in by_ablation.items()}
                for p, by_ablation in self.scores.items()
            },
            "latency_ms": {a: dict(v) for a, v in self.latency_ms.items()},
            "baseline_failed_queries": dict(self.baseline_failures),
            "vector_leg": {p: dict(v) for p, v in self.vector_leg.items()},
            "database": [dict(row) for row in self.database],
            "run_log": self.run_log.name if self.run_log else None,
        }

    def _category_table(self, category: str) -> list[str]:
        lines = [
            "| ablation | n | " + " | ".join(METRIC_NAMES) + " |",
            "|---|---:|" + "---:|" * len(METRIC_NAMES),
        ]
        for ablation in self.ablations:
            summary = self.pooled.get(ablation, {}).get(category)
            if summary is not None:
                values = " | ".join(f"{summary.means.get(m, 0.0):.3f}" for m in METRIC_NAMES)
                lines.append(f"| {ablation} | {summary.queries} | {values} |")
        return lines

    def _graph_effect(self) -> list[str]:
        """What adding the graph leg changes: hybrid minus vector+text, per category."""
        with_graph, without = self.pooled.get("hybrid"), self.pooled.get("vector+text")
        if with_graph is None or without is None:
            return []
        metrics = ("MRR", "R@1", "R@10", "Acc@10")
        lines = [
            "",
            "### What the graph leg adds (hybrid minus vector+text, pooled)",
            "",
            "| category | " + " | ".join(f"Δ {m}" for m in metrics) + " |",
            "|---|" + "---:|" * len(metrics),
        ]
        for category in ["all", *(c.value for c in Category)]:
            if category in with_graph and category in without:
                deltas = (
                    with_graph[category].means.get(m, 0.0) - without[category].means.get(m, 0.0)
                    for m in metrics
                )
                lines.append(f"| {category} | " + " | ".join(f"{d:+.3f}" for d in deltas) + " |")
        return lines

    def to_markdown(self) -> str:
        k, n = self.config.get("k"), int(self.config.get("sample", 0))
        out = [
            "# Code questions: retrieval quality per category and ablation",
            "",
            f"Packages: {', '.join(self.packages)}. Embedder: {self.config.get('embedder')}. "
            f"Top {k} hits scored; MRR is of the top {k}; Acc@k is strict (every relevant id "
            "in the top k). Generated by `benchmarks/retrieval/code_questions.py`; every answer, "
            "with its per-leg ranks and timings, is in the JSONL run log "
            f"`{self.run_log.name if self.run_log else '-'}` (commit {_commit(self.config)}).",
            "",
            f"Per package, seed {self.config.get('seed')}: up to {n} concept questions (first "
            "docstring sentence -> that function, asked of the copy without docstrings), up to "
            f"{n} callers questions (jedi; targets with 1-{MAX_CALLERS} callers), impact "
            f"questions for every module with 1-{MAX_IMPORTERS} reverse transitive runtime "
            "importers (grimp), each as a path and as a module name, scored per module (R@10 "
            f"and Acc@10 cannot reach 1 above 10 importers), and {max(1, n // 4)} symbols x 4 "
            "spellings of definition questions.",
            "",
            "## All packages pooled",
        ]
        for category in ["all", *(c.value for c in Category)]:
            out += ["", f"### {category}", "", *self._category_table(category)]
        out += self._graph_effect()
        ablations = list(self.ablations)
        per_package = [
            (f"{package} {category.value}", {a: t[a][category.value] for a in t})
            for package, t in self.scores.items()
            for category in Category
            if any(category.value in t[a] for a in t)
        ]
        out += ["", "## Per package: MRR / R@10", ""]
        out += _pivot("package, category", per_package, ablations, ("MRR", "R@10"))
        spelled = sorted({v for rows in self.variants.values() for v in rows})
        by_variant = [(v, {a: self.variants[a][v] for a in self.variants}) for v in spelled]
        out += ["", "## By spelling of the question (pooled): MRR / R@10", ""]
        out += _pivot("category/spelling", by_variant, ablations, ("MRR", "R@10"))
        out += [
            "",
            "## Latency of one search call (ms; query embedding excluded, it is cached)",
            "",
            "| ablation | p50 | p95 |",
            "|---|---:|---:|",
        ]
        for ablation in self.ablations:
            latency = self.latency_ms.get(ablation, {})
            out.append(
                f"| {ablation} | {latency.get('p50', 0.0):.1f} | {latency.get('p95', 0.0):.1f} |"
            )
        if self.baseline_failures:
            failed = ", ".join(f"{p}: {n}" for p, n in self.baseline_failures.items())
            out += ["", f"neo4j-graphrag queries that failed (Lucene parse errors): {failed}."]
        if self.vector_leg:
            legs = ", ".join(
                f"{p}: {v['mean']:.1f} ({v['short']:.0%} short)" for p, v in self.vector_leg.items()
            )
            out += [
                "",
                f"Vector leg, mean in-repository hits of {self.config.get('candidates')}: {legs}.",
            ]
        if self.database:
            stored = ", ".join(
                f"{row['repo']} {row['nodes']}/{row['vectors']}" for row in self.database
            )
            out += ["", f"Stored in the database (nodes/vectors): {stored}."]
        return "\n".join(out) + "\n"
