"""Code questions on TypeScript / JavaScript code bases, answered from the TypeScript checker and
the code bases' own doc comments, never from our graph.

Per code base of the TS oracle (`benchmarks/oracles/ts_oracle.py` must have run):

- concept questions: the first sentence of a function's, method's or class's TSDoc / JSDoc
  comment, asked of a copy of the code base whose `/** … */` comments are blanked (so the text
  leg cannot simply match the comment); the answer is that declaration;
- callers questions: "What calls X?" for a function or method the checker saw called from a
  named function, the answers being those callers (the checker's `caller` of each call site).

Each question is asked with the full hybrid search and with the vector + full-text legs alone
(the offline MiniLM embedder), and scored by MRR@10 (the first right answer's reciprocal rank).

    .venv/bin/python -m benchmarks.retrieval.ts_code_questions [mobx-6.13.7 ...] [--sample 40]
        [--json benchmarks/results/ts_code_questions.json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import ORACLE_OUT_DIR
from graphrag_code.api import connect, index_repository
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import make_embedder
from graphrag_code.evaluation.metrics import mrr
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.settings import load_settings

ORACLE_DIR = ORACLE_OUT_DIR / "ts"
DEFAULT_CODEBASES = ("mobx-6.13.7", "mocha-10.8.2", "react-day-picker-8.10.1")
_DOC = re.compile(r"/\*\*.*?\*/", re.DOTALL)
_SENTENCE = re.compile(r"^(.+?[.!?])(\s|$)", re.DOTALL)
_PROJECT = ("package.json", "tsconfig.json", "jsconfig.json")
VARIANTS = {"hybrid": SearchOptions(), "vector+text": SearchOptions(legs=("vector", "text"))}


@dataclass(frozen=True)
class Question:
    category: str  # "concept" | "callers"
    text: str
    relevant: frozenset[str]  # node ids


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def nodoc_copy(root: Path, files: list[str], target: Path) -> None:
    """The analysed files (and project files) of a code base with doc comments blanked:
    lines and columns stay where they were."""
    for relative in files:
        source = root / relative
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_text(_DOC.sub(_blank, source.read_text(encoding="utf-8")))
    for name in _PROJECT:
        if (root / name).is_file():
            shutil.copy(root / name, target / name)


def first_sentence(comment: str) -> str | None:
    """The first sentence of a doc comment's description (tags and markup left out)."""
    body = comment.removeprefix("/**").removesuffix("*/")
    lines = [re.sub(r"^\s*\* ?", "", line).strip() for line in body.splitlines()]
    description = " ".join(line for line in lines if line and not line.startswith("@"))
    description = re.sub(r"\{@link\s+([^}|]+)[^}]*\}", r"\1", description)
    description = re.sub(r"[`*_]", "", description).strip()
    match = _SENTENCE.match(description)
    sentence = (match.group(1) if match else description).strip()
    return sentence if len(sentence.split()) >= 5 else None


def _nodes(graph: CodeGraph, repo: str) -> list[dict[str, Any]]:
    return graph.client.read(
        "MATCH (n:Symbol {repo: $repo}) RETURN n.id AS id, n.name AS name, n.path AS path, "
        "n.qualified_name AS qualified_name, n.start_line AS start, n.end_line AS end, "
        "n.kind AS kind",
        {"repo": repo},
    )


class _Index:
    """Our nodes by (path, name), to name the declarations the questions are about."""

    def __init__(self, nodes: list[dict[str, Any]]) -> None:
        self.by_name: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        self.names: dict[str, int] = defaultdict(int)
        for node in nodes:
            self.by_name[(node["path"], node["name"])].append(node)
            self.names[node["name"]] += 1

    def at(self, path: str, name: str, line: int) -> dict[str, Any] | None:
        spans = [n for n in self.by_name.get((path, name), []) if n["start"] <= line <= n["end"]]
        return min(spans, key=lambda n: n["end"] - n["start"]) if spans else None

    def spelling(self, node: dict[str, Any]) -> str:
        """The short name a person would ask about: `parse`, or `Parser.parse` when several
        things are called `parse`."""
        if self.names[node["name"]] == 1:
            return str(node["name"])
        parts = str(node["qualified_name"]).split(".")
        return ".".join(parts[-2:])


def concept_questions(root: Path, files: list[str], index: _Index) -> list[Question]:
    questions = []
    for relative in files:
        text = (root / relative).read_text(encoding="utf-8")
        for match in _DOC.finditer(text):
            sentence = first_sentence(match.group(0))
            if sentence is None:
                continue
            after = text[match.end() :].lstrip()
            name = re.match(
                r"(?:export\s+)?(?:default\s+)?(?:abstract\s+|async\s+|static\s+|public\s+|"
                r"protected\s+|private\s+|readonly\s+|declare\s+)*"
                r"(?:function\*?\s+|class\s+|const\s+|let\s+|var\s+|get\s+|set\s+)?"
                r"([A-Za-z_$][\w$]*)",
                after,
            )
            if name is None:
                continue
            line = text.count("\n", 0, match.end() + (len(text) - match.end() - len(after))) + 1
            node = index.at(relative, name.group(1), line)
            if node is not None and node["kind"] in ("Function", "Method", "Class"):
                questions.append(Question("concept", sentence, frozenset({node["id"]})))
    return questions


def caller_questions(calls: dict[str, Any], index: _Index) -> list[Question]:
    callers: dict[str, set[str]] = defaultdict(set)
    targets: dict[str, dict[str, Any]] = {}
    for site in calls["calls"]:
        target, caller = site.get("target"), site.get("caller")
        if target is None or caller is None or target.get("kind") in ("other", "class"):
            continue
        node = index.at(target["file"], target["name"], target["line"])
        source = index.at(site["file"], caller["name"], caller["line"])
        if node is None or source is None or source["id"] == node["id"]:
            continue
        callers[node["id"]].add(source["id"])
        targets[node["id"]] = node
    return [
        Question("callers", f"What calls {index.spelling(targets[node])}?", frozenset(found))
        for node, found in sorted(callers.items())
        if len(found) <= 10
    ]


def run(name: str, sample: int, seed: int, graph: CodeGraph) -> dict[str, Any]:
    root = ORACLE_DIR / name
    calls = json.loads((ORACLE_DIR / f"{name}.calls.json").read_text())
    files = list(calls["files"])
    repo = f"tscq-{name.replace('+', '-')}"
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / name
        nodoc_copy(root, files, copy)
        report = index_repository(
            copy, repo, client=graph.client, settings=graph.settings, full=True,
            embedder=graph.embedder,
        )  # fmt: skip
    graph._searcher = None  # repository sizes changed
    index = _Index(_nodes(graph, repo))
    chooser = random.Random(seed)
    questions: list[Question] = []
    for found in (concept_questions(root, files, index), caller_questions(calls, index)):
        chooser.shuffle(found)
        questions.extend(found[:sample])
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for question in questions:
        for variant, options in VARIANTS.items():
            result = graph.search(question.text, repo=repo, options=options)
            ranking = [hit.id for hit in result.hits]
            scores[question.category][variant].append(mrr(ranking, question.relevant, k=10))
    GraphWriter(graph.client, repo).delete_repository()
    return {
        "codebase": name,
        "files": report.files_total,
        "symbols": report.symbols,
        "questions": {c: len(v["hybrid"]) for c, v in scores.items()},
        "mrr": {
            category: {v: round(sum(s) / len(s), 3) for v, s in by_variant.items() if s}
            for category, by_variant in scores.items()
        },
    }


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| code base | category | questions | hybrid MRR@10 | vector + full-text MRR@10 |",
        "|---|---|---:|---:|---:|",
    ]
    for result in results:
        for category, by_variant in sorted(result["mrr"].items()):
            lines.append(
                f"| {result['codebase']} | {category} | {result['questions'][category]} | "
                f"{by_variant['hybrid']:.3f} | {by_variant['vector+text']:.3f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("codebases", nargs="*", default=list(DEFAULT_CODEBASES))
    parser.add_argument("--sample", type=int, default=40, help="questions a category")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    settings = load_settings()
    with connect(settings) as client:
        graph = CodeGraph(settings, client=client, embedder=make_embedder(settings))
        results = [run(name, args.sample, args.seed, graph) for name in args.codebases]
    print(markdown(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")
        args.json.with_suffix(".md").write_text(markdown(results) + "\n")


if __name__ == "__main__":
    main()
