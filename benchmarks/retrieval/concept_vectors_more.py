"""Three more things tried on the concept questions' vector leg (issue 18, stop 46), offline.

The questions and nodes of `benchmarks.retrieval.concept_vectors` (a docstring's first
sentence -> that function, in a copy of the package without docstrings; every module and symbol
a candidate), ranked by exact cosine in memory, MRR@10:

- *without classes*: class nodes left out of the candidates. A class's ghost text lists its
  members' headers, so a class often ranks above the method asked about; leaving classes out
  bounds what any fix of that can gain.
- *a second encoder*: each question's cosines from bge-small and from a second model (e5-small
  by default), z-scored per question and summed with a weight on the second.
- *call neighbours*: a function's ghost text also names what it calls and what calls it
  (certain CALLS edges of our own linker, short names, up to 8 callees and 5 callers), within
  the same word budget.

    .venv/bin/python -m benchmarks.retrieval.concept_vectors_more \\
        --json benchmarks/results/concept_vectors_more_stop46.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from benchmarks.retrieval.concept_vectors import PACKAGES, TOP, Node, _unit, load_linked
from graphrag_code.embedding import DEFAULT_MAX_WORDS, Embedder, ghost_text, make_embedder
from graphrag_code.embedding.ghost import count_words
from graphrag_code.model import EdgeKind, Resolution
from graphrag_code.settings import load_settings
from harness.code_questions import DEFAULT_SEED

_CERTAIN = (Resolution.EXACT, Resolution.INFERRED)
_CALLEES, _CALLERS = 8, 5


@dataclass(frozen=True)
class Package:
    spec: str
    questions: list[tuple[str, str]]
    nodes: list[Node]
    callees: dict[str, list[str]]  # qualified name -> what it calls (certain edges)
    callers: dict[str, list[str]]


def load(spec: str, work: Path, *, sample: int, seed: int) -> Package:
    package, linked = load_linked(spec, work, sample=sample, seed=seed)
    callees: dict[str, list[str]] = defaultdict(list)
    callers: dict[str, list[str]] = defaultdict(list)
    for edge in linked.edges():
        if edge.kind == EdgeKind.CALLS and not edge.external and edge.resolution in _CERTAIN:
            source, target = edge.source.split(":", 1)[1], edge.target.split(":", 1)[1]
            callees[source].append(target)
            callers[target].append(source)
    return Package(package.spec, package.questions, package.nodes, dict(callees), dict(callers))


def _short_names(names: Sequence[str], most: int) -> list[str]:
    return list(dict.fromkeys(name.rsplit(".", 1)[-1] for name in names))[:most]


def ghost_texts(package: Package, *, neighbours: bool) -> list[str]:
    texts = []
    for node in package.nodes:
        extra: list[str] = []
        if neighbours and node.kind in ("function", "method"):
            called = _short_names(package.callees.get(node.qualified_name, []), _CALLEES)
            calling = _short_names(package.callers.get(node.qualified_name, []), _CALLERS)
            if called:
                extra.append("calls " + ", ".join(called))
            if calling:
                extra.append("used by " + ", ".join(calling))
        words = DEFAULT_MAX_WORDS - sum(count_words(part) for part in extra)
        text = ghost_text(
            path=node.path, qualified_name=node.qualified_name, kind=node.kind,
            signature=node.signature, docstring=None, code=node.code, max_words=words,
        )  # fmt: skip
        if extra:  # after the path, the name and the signature, before the body
            lines = text.split("\n")
            text = "\n".join(lines[:3] + extra + lines[3:])
        texts.append(text)
    return texts


Cosines = NDArray[np.float32]  # questions x nodes


def cosines(package: Package, embedder: Embedder, *, neighbours: bool = False) -> Cosines:
    documents = _unit(embedder.embed_documents(ghost_texts(package, neighbours=neighbours)))
    queries = _unit([embedder.embed_query(question) for question, _ in package.questions])
    scores: Cosines = queries @ documents.T
    return scores


def _z(rows: Cosines) -> Cosines:
    scaled: Cosines = (rows - rows.mean(axis=1, keepdims=True)) / (
        rows.std(axis=1, keepdims=True) + 1e-9
    )
    return scaled


def mrr(package: Package, scores: Cosines, keep: Callable[[Node], bool] = lambda _: True) -> float:
    names = [node.qualified_name for node in package.nodes]
    allowed = np.array([keep(node) for node in package.nodes])
    total = 0.0
    for row, (_, answer) in zip(scores, package.questions, strict=True):
        order = np.argsort(-np.where(allowed, row, -np.inf))[:TOP]
        top = [names[i] for i in order]
        total += 1 / (top.index(answer) + 1) if answer in top else 0.0
    return total / len(package.questions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--packages", nargs="+", default=list(PACKAGES), metavar="NAME==VERSION")
    parser.add_argument("--second", default="e5-small", help="the second encoder")
    parser.add_argument("--weights", type=float, nargs="+", default=[0.25, 0.5, 1.0])
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    first = make_embedder(load_settings(embedder="bge-small"))
    second = make_embedder(load_settings(embedder=args.second))
    with tempfile.TemporaryDirectory() as work:
        packages = [load(s, Path(work), sample=args.sample, seed=args.seed) for s in args.packages]
    rows: dict[str, dict[str, float]] = defaultdict(dict)
    for package in packages:
        base = cosines(package, first)
        rows["bge-small (the default)"][package.spec] = mrr(package, base)
        rows["without classes"][package.spec] = mrr(package, base, lambda n: n.kind != "class")
        other = _z(cosines(package, second))
        for weight in args.weights:
            name = f"+ {args.second} x {weight:g}"
            rows[name][package.spec] = mrr(package, _z(base) + weight * other)
        rows["call neighbours"][package.spec] = mrr(
            package, cosines(package, first, neighbours=True)
        )
    out: dict[str, Any] = {}
    print("| variant | " + " | ".join(p.spec for p in packages) + " | pooled |")
    print("|---|" + "---:|" * (len(packages) + 1))
    for name, by_spec in rows.items():
        counts = {p.spec: len(p.questions) for p in packages}
        pooled = sum(by_spec[s] * counts[s] for s in by_spec) / sum(counts.values())
        out[name] = {**{s: round(v, 4) for s, v in by_spec.items()}, "pooled": round(pooled, 4)}
        cells = " | ".join(f"{by_spec[p.spec]:.3f}" for p in packages)
        print(f"| {name} | {cells} | {pooled:.3f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
