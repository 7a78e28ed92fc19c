"""The concept questions' vector leg, offline, for ghost-text variants (issue 18).

The questions of `benchmarks.retrieval.code_questions` (a docstring's first sentence -> that
function, asked of a copy of the package without docstrings), the same nodes the indexer embeds for
Python (every module and symbol of the copy), ranked by exact cosine in memory: no Neo4j, so
a variant of the ghost text or of the query scores in about a minute for five packages. With
the defaults this is the "vector only" concept row of BENCHMARKS.md §5 (MRR .663 pooled over
requests, flask and click with bge-small; Neo4j's HNSW gave the same).

    .venv/bin/python -m benchmarks.retrieval.concept_vectors \
        --packages httpx==0.28.1 starlette==0.41.3 --max-words 104 160 220 \
        --recipes name_sig_doc_body name_sig_doc_split_body name_sig_doc
    .venv/bin/python -m benchmarks.retrieval.concept_vectors --no-query-prefix  # no bge prefix

Vectors are kept in memory for the run only.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from benchmarks.oracles.packages import fetch, parse_spec
from graphrag_code.embedding import (
    DEFAULT_MAX_WORDS,
    Embedder,
    GhostRecipe,
    ghost_text,
    make_embedder,
)
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.settings import load_settings
from harness.code_questions import DEFAULT_SEED, concept_questions, copy_package
from harness.code_questions.definitions import scan_definitions

PACKAGES = (
    "requests==2.32.3",
    "flask==3.0.3",
    "click==8.1.7",
    "httpx==0.28.1",
    "starlette==0.41.3",
)
TOP = 10


@dataclass(frozen=True)
class Node:
    """What a ghost text is made of, for one module or symbol of the copy."""

    path: str
    qualified_name: str
    kind: str
    signature: str | None
    code: str


@dataclass(frozen=True)
class Package:
    spec: str
    questions: list[tuple[str, str]]  # (question, qualified name of the answer)
    nodes: list[Node]


def load_package(spec: str, work: Path, *, sample: int, seed: int) -> Package:
    """The concept questions of `spec` and the nodes of its copy without docstrings."""
    package, _ = load_linked(spec, work, sample=sample, seed=seed)
    return package


def load_linked(
    spec: str, work: Path, *, sample: int, seed: int
) -> tuple[Package, LinkedRepository]:
    """`load_package`, and the copy as our linker linked it (its edges, for variants that
    read the graph)."""
    name, version = parse_spec(spec)
    fetched = fetch(name, version)
    questions = concept_questions(
        scan_definitions(fetched.import_root, fetched.package), spec, sample=sample, seed=seed
    )
    target = work / f"{name}-{version}"
    copy_package(fetched.import_root, fetched.package, target, without_docstrings=True)
    linked = link_repository(target, repo=name)
    nodes: list[Node] = []
    for parsed in linked.parsed.values():
        nodes.append(Node(parsed.path, parsed.module, "module", None, parsed.code))
        nodes.extend(
            Node(parsed.path, s.qualified_name, s.kind.value.lower(), s.signature, s.code)
            for s in parsed.symbols
        )
    asked = [(q.question, q.subject) for q in questions if q.subject is not None]
    return Package(spec, asked, nodes), linked


def _unit(vectors: Sequence[Sequence[float]]) -> NDArray[np.float32]:
    array = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return (array / np.where(norms == 0, 1, norms)).astype(np.float32)


def reciprocal_ranks(
    package: Package,
    embedder: Embedder,
    *,
    recipe: GhostRecipe,
    max_words: int,
    query_prefix: bool,
) -> list[float]:
    """1 / rank of each question's answer among all nodes (0 beyond the top 10)."""
    texts = [
        ghost_text(
            path=node.path,
            qualified_name=node.qualified_name,
            kind=node.kind,
            signature=node.signature,
            docstring=None,
            code=node.code,
            max_words=max_words,
            recipe=recipe,
        )
        for node in package.nodes
    ]
    documents = _unit(embedder.embed_documents(texts))
    asked = [question for question, _ in package.questions]
    queries = _unit(
        [embedder.embed_query(q) for q in asked]
        if query_prefix
        else embedder.embed_documents(asked)
    )
    names = [node.qualified_name for node in package.nodes]
    scores: list[float] = []
    for row, (_, answer) in zip(queries @ documents.T, package.questions, strict=True):
        top = [names[i] for i in np.argsort(-row)[:TOP]]
        scores.append(1 / (top.index(answer) + 1) if answer in top else 0.0)
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--packages", nargs="+", default=list(PACKAGES), metavar="NAME==VERSION")
    parser.add_argument("--embedder", default="bge-small", help="minilm, bge-small, e5-small")
    parser.add_argument("--max-words", type=int, nargs="+", default=[DEFAULT_MAX_WORDS])
    parser.add_argument(
        "--recipes",
        nargs="+",
        choices=[r.value for r in GhostRecipe if r is not GhostRecipe.BODY_ONLY],
        default=[GhostRecipe.NAME_SIG_DOC_BODY.value],
    )
    parser.add_argument(
        "--no-query-prefix", action="store_true", help="embed questions as documents"
    )
    parser.add_argument("--sample", type=int, default=100, help="questions per package")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    embedder = make_embedder(load_settings(embedder=args.embedder))
    with tempfile.TemporaryDirectory() as work:
        packages = [
            load_package(spec, Path(work), sample=args.sample, seed=args.seed)
            for spec in args.packages
        ]
    rows: list[dict[str, Any]] = []
    print(
        "| recipe | max words | query prefix | "
        + " | ".join(p.spec for p in packages)
        + " | pooled MRR@10 |"
    )
    print("|---|---:|---|" + "---:|" * (len(packages) + 1))
    for recipe in (GhostRecipe(value) for value in args.recipes):
        for words in args.max_words:
            ranks = {
                p.spec: reciprocal_ranks(
                    p,
                    embedder,
                    recipe=recipe,
                    max_words=words,
                    query_prefix=not args.no_query_prefix,
                )
                for p in packages
            }
            every = [r for scores in ranks.values() for r in scores]
            row = {
                "recipe": recipe.value,
                "max_words": words,
                "query_prefix": not args.no_query_prefix,
                "mrr": {
                    spec: round(sum(s) / len(s), 4) if s else None for spec, s in ranks.items()
                },
                "questions": {spec: len(s) for spec, s in ranks.items()},
                "pooled_mrr": round(sum(every) / len(every), 4) if every else None,
            }
            rows.append(row)
            cells = " | ".join(f"{v:.3f}" if v is not None else "–" for v in row["mrr"].values())
            print(
                f"| {recipe.value} | {words} | {'yes' if row['query_prefix'] else 'no'} | "
                f"{cells} | {row['pooled_mrr']:.3f} |",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps({"embedder": args.embedder, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
