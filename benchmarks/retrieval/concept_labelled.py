"""Concept questions labelled by hand ("where is X handled", "how does Y work") on whole
repositories, tests included: does search find the code, or the tests about it (issue 55)?

The questions and their answers (qualified names, any of which counts) are in
`benchmarks/retrieval/labelled/*.json`, written by reading each repository's code and docs,
never from our graph's answers. `heldout.json` (marshmallow, structlog) was fixed before any
change to search and is not tuned on; `tuning.json` holds the misses issue 55 reported (rich,
attrs, @tanstack/query-core), which the changes were made against.

Per question: the rank of the first right answer in each leg (vector, text and graph, read
from one search fusing all three at weight 1), in the default search (the intent's weights;
test code left out of concept questions that do not mention tests) and in the default search
keeping test code (`tests=True`); scored as MRR@10 and hit@10.

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
    fused_with_tests: int | None = None


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


def _qualified_names(graph: CodeGraph, ids: list[str]) -> dict[str, str]:
    """Each node's qualified name, marked `[test]` when it is test code."""
    rows = graph.client.read(
        "MATCH (n:Code) WHERE n.id IN $ids RETURN n.id AS id, n.qualified_name AS name, "
        "coalesce(n.test_code, false) AS test",
        {"ids": ids},
    )
    return {row["id"]: str(row["name"]) + (" [test]" if row["test"] else "") for row in rows}


def rank(graph: CodeGraph, question: Question, *, details: bool, console: Console) -> Ranks:
    equal = graph.search(question.text, repo=question.repo, options=SearchOptions(weights=EQUAL))
    default = graph.search(question.text, repo=question.repo)
    ids = [i for leg in equal.legs.values() for i in leg] + [h.id for h in default.hits]
    named = _qualified_names(graph, ids)
    ranks = Ranks()
    for leg in ("vector", "text", "graph"):
        names = [named.get(i, i).removesuffix(" [test]") for i in equal.legs.get(leg, [])]
        setattr(ranks, leg, first_rank(names, question.expected))
    fused = [h.qualified_name for h in default.hits]
    ranks.fused = first_rank(fused, question.expected)
    if with_tests_option():
        kept = _names(graph, question, SearchOptions(tests=True))
        ranks.fused_with_tests = first_rank(kept, question.expected)
    if details:
        console.print(f"[bold]{question.repo}: {question.text!r}[/] -> {ranks}", highlight=False)
        console.print(f"  intent {default.question.intent.value}", highlight=False)
        for leg, leg_ids in [*equal.legs.items(), ("fused", [h.id for h in default.hits])]:
            shown = ", ".join(named.get(i, i) for i in leg_ids[:6])
            console.print(f"  {leg}: {shown}", highlight=False)
    return ranks


def with_tests_option() -> bool:
    """Whether search has the `tests` option (it came with issue 55: runs of the code before
    it report no `fused_with_tests`, the fused column then keeping test code)."""
    return "tests" in {f.name for f in fields(SearchOptions)}


def score(ranks: list[Ranks]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for column in (f.name for f in fields(Ranks)):
        if column == "fused_with_tests" and not with_tests_option():
            continue
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
        by_repo[question.repo].append(rank(graph, question, details=details, console=console))
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
