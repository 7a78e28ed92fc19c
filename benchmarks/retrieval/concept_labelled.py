"""Concept questions labelled by hand ("where is X handled", "how does Y work") on whole
repositories, tests included: does search find the code, or the tests about it (issue 55)?

The questions and their answers (qualified names, any of which counts) are in
`benchmarks/retrieval/labelled/*.json`, written by reading each repository's code and docs,
never from our graph's answers. `heldout.json` (marshmallow, structlog) was fixed before any
change to search and is not tuned on; `tuning.json` holds the misses issue 55 reported (rich,
attrs, @tanstack/query-core), which the changes were made against.

Per question: the rank of the first right answer in each leg (vector, text and graph, read
from one search fusing all three at weight 1) and in the default search (the intent's weights);
scored as MRR@10 and hit@10.

    .venv/bin/python -m benchmarks.retrieval.concept_labelled heldout tuning [--details]
        [--json benchmarks/results/concept_labelled.json]

The repositories are indexed once (with the configured embedder, default bge-small) into a
Neo4j of this benchmark's own whose data stays in benchmarks/cache/neo4j-concept-labelled;
later runs reuse the graph and its vectors (`--reindex` rebuilds them).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks.common.paths import CACHE_DIR
from benchmarks.retrieval.code_questions import dedicated_client
from graphrag_code.api import index_repository
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import make_embedder
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.settings import load_settings

QUESTIONS = Path(__file__).resolve().parent / "labelled"
SERVER_HOME = CACHE_DIR / "neo4j-concept-labelled"
# repository name in the questions -> its sources (in the shared cache)
SOURCES = {
    "marshmallow-3.23.1": CACHE_DIR / "src" / "marshmallow-3.23.1",
    "structlog-24.4.0": CACHE_DIR / "src" / "structlog-24.4.0",
    "rich-13.9.4": CACHE_DIR / "src" / "rich-13.9.4",
    "attrs-24.2.0": CACHE_DIR / "src" / "attrs-24.2.0",
    "query-core-5.59.0": CACHE_DIR / "oracles" / "ts" / "tanstack+query-core-5.59.0",
}
EQUAL = {"vector": 1.0, "text": 1.0, "graph": 1.0}
K = 10


@dataclass(frozen=True)
class Question:
    repo: str
    text: str
    expected: tuple[str, ...]  # qualified names; any of them answers the question


@dataclass
class Ranks:
    """The rank (from 1) of the first right answer; None: not in the top K."""

    vector: int | None = None
    text: int | None = None
    graph: int | None = None
    fused: int | None = None


def load_questions(name: str) -> list[Question]:
    data = json.loads((QUESTIONS / f"{name}.json").read_text(encoding="utf-8"))
    return [
        Question(entry["repo"], entry["text"], tuple(entry["expected"]))
        for entry in data["questions"]
    ]


def answers(qualified_name: str, expected: tuple[str, ...]) -> bool:
    """Whether a hit names one of the expected symbols (a qualified name, or its tail after a
    dot: a src/ layout may add a prefix)."""
    return any(qualified_name == e or qualified_name.endswith("." + e) for e in expected)


def first_rank(names: list[str], expected: tuple[str, ...]) -> int | None:
    return next((r for r, n in enumerate(names[:K], start=1) if answers(n, expected)), None)


def ensure_indexed(graph: CodeGraph, repos: set[str], *, reindex: bool, console: Console) -> None:
    held = {info.name for info in graph.repositories()}
    for repo in sorted(repos):
        if repo in held and not reindex:
            continue
        console.print(f"indexing {repo} (once; the graph stays in {SERVER_HOME})")
        report = index_repository(
            SOURCES[repo], repo, client=graph.client, settings=graph.settings, full=True,
            embedder=graph.embedder,
        )  # fmt: skip
        console.print(f"  {report.files_total} files, {report.symbols} symbols")
    graph._searcher = None  # repository sizes changed


def _names(graph: CodeGraph, question: Question, options: SearchOptions) -> list[str]:
    return [
        h.qualified_name
        for h in graph.search(question.text, repo=question.repo, options=options).hits
    ]


def rank(graph: CodeGraph, question: Question) -> Ranks:
    equal = graph.search(question.text, repo=question.repo, options=SearchOptions(weights=EQUAL))
    by_id = {h.id: h.qualified_name for h in equal.hits}
    ranks = Ranks()
    for leg in ("vector", "text", "graph"):
        ids = equal.legs.get(leg, [])
        names = [by_id.get(i, i.split(":", 1)[-1]) for i in ids]
        setattr(ranks, leg, first_rank(names, question.expected))
    ranks.fused = first_rank(_names(graph, question, SearchOptions()), question.expected)
    return ranks


def score(ranks: list[Ranks]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for column in (f.name for f in fields(Ranks)):
        values = [getattr(r, column) for r in ranks]
        out[column] = {
            "mrr": round(sum(1 / v for v in values if v) / len(values), 3),
            "hit@10": round(sum(1 for v in values if v) / len(values), 3),
        }
    return out


def markdown(
    name: str, results: dict[str, dict[str, dict[str, float]]], count: dict[str, int]
) -> str:
    columns = list(next(iter(results.values())))
    lines = [
        f"**{name}** (MRR@10 / hit@10)",
        "",
        "| repository | questions | " + " | ".join(columns) + " |",
        "|---|---:|" + "---:|" * len(columns),
    ]
    for repo, by_column in results.items():
        cells = " | ".join(
            f"{by_column[c]['mrr']:.3f} / {by_column[c]['hit@10']:.2f}" for c in columns
        )
        lines.append(f"| {repo} | {count[repo]} | {cells} |")
    return "\n".join(lines)


def run(graph: CodeGraph, name: str, *, details: bool, console: Console) -> dict[str, Any]:
    questions = load_questions(name)
    by_repo: dict[str, list[Ranks]] = defaultdict(list)
    for question in questions:
        ranks = rank(graph, question)
        by_repo[question.repo].append(ranks)
        if details:
            console.print(f"{question.repo}: {question.text!r} -> {ranks}")
    everything = [r for ranks in by_repo.values() for r in ranks]
    results = {repo: score(ranks) for repo, ranks in by_repo.items()}
    results["all"] = score(everything)
    count = {repo: len(ranks) for repo, ranks in by_repo.items()} | {"all": len(everything)}
    return {
        "set": name,
        "questions": count,
        "scores": results,
        "markdown": markdown(name, results, count),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("sets", nargs="*", help="heldout, tuning")
    parser.add_argument("--details", action="store_true", help="print each question's ranks")
    parser.add_argument("--reindex", action="store_true")
    parser.add_argument("--index-only", action="store_true", help="index every repository")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    settings = load_settings()
    repos = (
        set(SOURCES)
        if args.index_only
        else {q.repo for name in args.sets for q in load_questions(name)}
    )
    with dedicated_client(settings, console, SERVER_HOME) as client:
        graph = CodeGraph(settings, client=client, embedder=make_embedder(settings))
        ensure_indexed(graph, repos, reindex=args.reindex, console=console)
        outcome = [run(graph, name, details=args.details, console=console) for name in args.sets]
    for result in outcome:
        print(result["markdown"] + "\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(outcome, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
