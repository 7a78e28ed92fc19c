"""Code questions on Go, Java and Rust code bases (BENCHMARKS §19, §22, §23), labelled from
their oracles and sources (`oracle_questions` says how), asked of our full hybrid search and of
the vector + full-text legs alone.

The oracles must have run (`benchmarks.oracles.go_oracle --set all`, `java_oracle`,
`rust_oracle`). Each code base's analysed files are copied with their doc comments blanked,
indexed (the configured embedder, bge-small by default) on a throwaway local Neo4j, and
asked up to `--sample` questions a category (definition: `--sample / 4` declarations in four
spellings); MRR@10.

    .venv/bin/python -m benchmarks.retrieval.oracle_code_questions go:cobra go:gin \
        java:gson-2.11.0 rust:semver-1.0.27 --json benchmarks/results/oracle_code_questions.json
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.oracles.go_oracle import GO_HELD_OUT, GO_OUT_DIR, module_root, pinned
from benchmarks.oracles.packages import ORACLE_OUT_DIR
from benchmarks.retrieval.oracle_questions import (
    Declaration,
    NodeIndex,
    Question,
    blank_docs,
    caller_questions,
    concept_questions,
    definition_questions,
    go_declaration,
    java_declaration,
    rust_declaration,
    short_name,
)
from graphrag_code.api import index_repository
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import make_embedder
from graphrag_code.errors import GraphRAGCodeError
from graphrag_code.evaluation.metrics import mrr
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.runtime.server.endpoints import temporary_local_server
from graphrag_code.settings import load_settings

VARIANTS = {"hybrid": SearchOptions(), "vector+text": SearchOptions(legs=("vector", "text"))}
Pair = tuple[tuple[str, int], tuple[str, int]]


class CodeBaseError(RuntimeError):
    """A code base is not named right or its oracle has not run."""


@dataclass(frozen=True)
class CodeBase:
    """What the questions need of one oracle's output."""

    language: str
    name: str
    set: str  # "tuning" | "heldout" (Go); "-" for Java and Rust
    root: Path
    files: list[str]
    pairs: list[Pair]
    declarations: list[Declaration]
    project: tuple[str, ...]  # files the copy also needs (go.mod, Cargo.toml)


def _go(name: str) -> CodeBase:
    entry = pinned(name)
    root = module_root(entry)
    path = GO_OUT_DIR / f"{entry.root_name}.calls.json"
    if not path.is_file():
        raise CodeBaseError(f"run `python -m benchmarks.oracles.go_oracle {name}` first")
    calls = json.loads(path.read_text(encoding="utf-8"))
    pairs = [
        ((c["caller"]["file"], c["caller"]["line"]), (c["callee"]["file"], c["callee"]["line"]))
        for c in calls["calls"]
        if c.get("callee") and c.get("caller")
    ]
    held = entry in GO_HELD_OUT
    return CodeBase(
        "go", entry.root_name, "heldout" if held else "tuning", root, list(calls["files"]), pairs,
        [go_declaration(d) for d in calls["decls"]], ("go.mod",),
    )  # fmt: skip


def _oracle_json(language: str, name: str) -> tuple[Path, dict[str, Any]]:
    path = ORACLE_OUT_DIR / language / f"{name}.json"
    if not path.is_file():
        raise CodeBaseError(f"{path} is missing: run the {language} oracle first")
    return ORACLE_OUT_DIR / language / name, json.loads(path.read_text(encoding="utf-8"))


def _located_pairs(calls: list[dict[str, Any]]) -> list[Pair]:
    pairs = []
    for call in calls:
        caller, callee = call.get("caller"), call.get("callee")
        if caller and callee and callee.get("file") and callee.get("line"):
            pairs.append(((caller["file"], caller["line"]), (callee["file"], callee["line"])))
    return pairs


def _java(name: str) -> CodeBase:
    root, data = _oracle_json("java", name)
    declared = [java_declaration(d) for d in data["decls"]]
    return CodeBase(
        "java", name, "-", root, list(data["files"]), _located_pairs(data["calls"]),
        [d for d in declared if d is not None], (),
    )  # fmt: skip


def _rust(name: str) -> CodeBase:
    root, data = _oracle_json("rust", name)
    declared = [rust_declaration(d) for d in data["decls"]]
    return CodeBase(
        "rust", name, "-", root, list(data["files"]), _located_pairs(data["calls"]),
        [d for d in declared if d is not None], ("Cargo.toml",),
    )  # fmt: skip


LOADERS: dict[str, Callable[[str], CodeBase]] = {"go": _go, "java": _java, "rust": _rust}


def load(spec: str) -> CodeBase:
    """`go:cobra`, `java:gson-2.11.0`, `rust:semver-1.0.27`."""
    language, _, name = spec.partition(":")
    if language not in LOADERS or not name:
        raise CodeBaseError(f"{spec!r}: expected go:NAME, java:NAME-VERSION or rust:NAME-VERSION")
    try:
        return LOADERS[language](name)
    except Exception as error:  # the oracle modules raise their own setup errors
        raise CodeBaseError(f"{spec}: {error}") from error


def nodoc_copy(base: CodeBase, target: Path) -> None:
    for relative in [*base.files, *base.project]:
        source = base.root / relative
        if not source.is_file():
            continue
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        text = source.read_text(encoding="utf-8", errors="replace")
        destination.write_text(
            text if relative in base.project else blank_docs(base.language, text), encoding="utf-8"
        )


def _nodes(graph: CodeGraph, repo: str) -> list[dict[str, Any]]:
    return graph.client.read(
        "MATCH (n:Symbol {repo: $repo}) RETURN n.id AS id, n.path AS path, n.kind AS kind, "
        "n.start_line AS start, n.end_line AS end",
        {"repo": repo},
    )


def questions_for(base: CodeBase, index: NodeIndex, sample: int, seed: int) -> list[Question]:
    """Up to `sample` concept and callers questions and `sample // 4` definition subjects."""
    chooser = random.Random(seed)
    spell: dict[str, str] = {}
    for declaration in base.declarations:
        node = index.at(declaration.path, declaration.line)
        if node is not None:
            spell.setdefault(node, short_name(declaration))
    out: list[Question] = []
    for found in (
        concept_questions(base.language, base.root, base.files, index),
        caller_questions(base.pairs, index, spell),
    ):
        chooser.shuffle(found)
        out.extend(found[:sample])
    definitions = sorted(definition_questions(base.declarations, index).items())
    chooser.shuffle(definitions)
    for _node, asked in definitions[: max(1, sample // 4)]:
        out.extend(asked)
    return out


def run(base: CodeBase, graph: CodeGraph, sample: int, seed: int) -> dict[str, Any]:
    repo = f"ocq-{base.language}-{base.name}"
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / base.name
        nodoc_copy(base, copy)
        report = index_repository(
            copy, repo, client=graph.client, settings=graph.settings, full=True,
            embedder=graph.embedder,
        )  # fmt: skip
    graph._searcher = None  # repository sizes changed
    index = NodeIndex(_nodes(graph, repo))
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for question in questions_for(base, index, sample, seed):
        for variant, options in VARIANTS.items():
            result = graph.search(question.text, repo=repo, options=options)
            scores[question.category][variant].append(
                mrr([hit.id for hit in result.hits], question.relevant, k=10)
            )
    GraphWriter(graph.client, repo).delete_repository()
    return {
        "language": base.language,
        "codebase": base.name,
        "set": base.set,
        "files": report.files_total,
        "questions": {c: len(v["hybrid"]) for c, v in scores.items()},
        "mrr": {
            category: {v: round(sum(s) / len(s), 3) for v, s in by_variant.items() if s}
            for category, by_variant in scores.items()
        },
    }


def pooled(results: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """MRR per (language and set) and category, weighted by questions."""
    sums: dict[str, dict[str, dict[str, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(lambda: [0.0, 0.0]))
    )
    for result in results:
        group = f"{result['language']} {result['set']}".rstrip(" -")
        for category, by_variant in result["mrr"].items():
            n = result["questions"][category]
            for variant, score in by_variant.items():
                cell = sums[group][category][variant]
                cell[0] += score * n
                cell[1] += n
    return {
        group: {c: {v: round(s / n, 3) for v, (s, n) in by.items() if n} for c, by in cats.items()}
        for group, cats in sums.items()
    }


def markdown(results: list[dict[str, Any]]) -> str:
    categories = ("callers", "concept", "definition")
    head = "| language | set | code base | " + " | ".join(
        f"{c} (n) | hybrid | vector + text" for c in categories
    )
    lines = [head + " |", "|---|---|---|" + "---:|---:|---:|" * len(categories)]
    for r in results:
        cells = []
        for c in categories:
            m = r["mrr"].get(c, {})
            cells.append(
                f"{r['questions'].get(c, 0)} | {m.get('hybrid', 0):.3f} | "
                f"{m.get('vector+text', 0):.3f}"
            )
        lines.append(
            f"| {r['language']} | {r['set']} | {r['codebase']} | " + " | ".join(cells) + " |"
        )
    for group, cats in pooled(results).items():
        cells = []
        for c in categories:
            m = cats.get(c, {})
            cells.append(f"– | {m.get('hybrid', 0):.3f} | {m.get('vector+text', 0):.3f}")
        lines.append(f"| **{group}** | | pooled | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("codebases", nargs="+", metavar="LANG:NAME")
    parser.add_argument("--sample", type=int, default=40, help="questions a category")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    try:
        bases = [load(spec) for spec in args.codebases]
    except CodeBaseError as error:
        print(f"error: {error}")
        return 1
    settings = load_settings()
    results = []
    with (
        temporary_local_server(settings) as (_server, endpoint),
        Neo4jClient(endpoint) as client,
    ):
        graph = CodeGraph(settings, client=client, embedder=make_embedder(settings))
        for base in bases:
            try:
                results.append(run(base, graph, args.sample, args.seed))
            except GraphRAGCodeError as error:  # one code base failing to index: say so, go on
                print(f"error: {base.language}:{base.name} was not indexed: {error}", flush=True)
                GraphWriter(client, f"ocq-{base.language}-{base.name}").delete_repository()
                continue
            print(json.dumps(results[-1]), flush=True)
            if args.json:  # after each code base: a long run's first results are kept
                _write(args.json, results)
    print(markdown(results))
    return 0


def _write(path: Path, results: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    path.with_suffix(".md").write_text(markdown(results) + "\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
