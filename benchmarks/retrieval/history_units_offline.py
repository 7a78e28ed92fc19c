"""File rankings of the history questions scored offline, from the legs `--dump-legs` recorded.

`benchmarks.retrieval.history_localisation REPO --dump-legs` writes, for every question, the
entries of each leg of `search(unit="file")` (before files are ranked) and, for every searched
tree, how many symbols each file holds, which files are tests and how many CALLS join two files.
This script ranks the same evidence with `rank_units` under variants of the file ranking and scores
strict Acc@k (every changed file in the top k) and Acc@k (any), as `eval history` does, in
seconds instead of an index run per setting. Its row `default` equals the benchmark's `files`
row when the dump was made with the same defaults (the benchmark's row is printed as a check).
The legs do not depend on the weights or on `rrf_k` (only on the depth and the graph's seeds),
so one dump serves every variant here.

    .venv/bin/python -m benchmarks.retrieval.history_units_offline pallets+click psf+requests \
        --grid --joint-grid --json benchmarks/results/history/units_offline_tuning_stop46.json
    .venv/bin/python -m benchmarks.retrieval.history_units_offline encode+httpx pallets+flask \
        encode+starlette --json benchmarks/results/history/units_offline_heldout_stop46.json

`--grid`, variants of the ranking before stop 46: `k` and `decay` (the fusion constant, the
weight of a file's later hits); `tests` / `code` (a test file lifted by the fused score of the
top code files it calls, by its share of the calls from tests into each, and code files by
the top test files); `size` (a file's symbol legs divided by (1 + its symbols) ** exponent,
so that many weak hits count less). `--joint-grid`: `rrf_k`, decay and the legs' weights
chosen together. `fit` / `evaluate_learned` (used from a shell, not the command line): a
logistic regression over each candidate file's evidence, fitted on one set of questions.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.retrieval.history_localisation import LEGS_DUMPS, RESULTS
from graphrag_code.retrieval.search import FILE_TEXT
from graphrag_code.retrieval.units import FileRanking, Unit, rank_units, unit_key

KS = (1, 5, 10)


@dataclass(frozen=True)
class Question:
    text: str
    relevant: tuple[str, ...]
    legs: dict[str, list[dict[str, Any]]]
    tree: Tree


@dataclass(frozen=True)
class Tree:
    """What a searched tree's graph says about its files."""

    symbols: Mapping[str, int]  # path -> symbols in the file
    tests: frozenset[str]
    # CALLS edges from a test file into each other file: source -> {test file: edges}
    tested_by: Mapping[str, Mapping[str, int]]
    # CALLS edges out of a test file: test file -> {file: edges}
    tests_calls: Mapping[str, Mapping[str, int]]


def _tree(record: Mapping[str, Any]) -> Tree:
    tests = frozenset(record.get("tests", ()))
    tested_by: dict[str, dict[str, int]] = {}
    calls: dict[str, dict[str, int]] = {}
    for source, target, kind, edges in record.get("edges", ()):
        if kind == "CALLS" and source in tests and target not in tests:
            tested_by.setdefault(target, {})[source] = edges
            calls.setdefault(source, {})[target] = edges
    return Tree(record["symbols"], tests, tested_by, calls)


@dataclass(frozen=True)
class Variant:
    """A file ranking: the product's settings, plus the size normalisation tried here."""

    name: str
    files: FileRanking = field(default_factory=FileRanking)
    size_exponent: float = 0.0
    # a test file gains `tests` x (the fused score of each of the top `top` code files) x (its
    # share of the CALLS edges from tests into that file); a code file likewise from the top
    # test files, by its share of their calls, with `code`
    tests: float = 0.0
    code: float = 0.0
    top: int = 5


def load(path: Path) -> list[Question]:
    questions: list[Question] = []
    tree = Tree({}, frozenset(), {}, {})
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:  # the last line of a dump still being written
                break
            if record["type"] == "tree":
                tree = _tree(record)
                continue
            legs = {
                leg: [{"id": i, "path": p, "kind": k, "repo": ""} for i, p, k in entries]
                for leg, entries in record["legs"].items()
            }
            questions.append(Question(record["text"], tuple(record["relevant"]), legs, tree))
    return questions


def ranked_files(question: Question, variant: Variant) -> list[str]:
    files = variant.files
    ranked = rank_units(
        question.legs,
        dict(files.weights),
        unit_key(Unit.FILE),
        decay=files.decay,
        rrf_k=files.rrf_k,
    )
    if variant.size_exponent:
        ranked = sorted(
            ranked,
            key=lambda u: (-_sized_score(u.leg_scores, files, question, u.key[1], variant), u.key),
        )
    if variant.tests or variant.code:
        fused = {u.key[1]: u.score for u in ranked}
        return _with_companions(fused, question.tree, variant)[: max(KS)]
    return [u.key[1] for u in ranked[: max(KS)]]


def _with_companions(fused: Mapping[str, float], tree: Tree, variant: Variant) -> list[str]:
    order = sorted(fused, key=lambda path: (-fused[path], path))
    code = [path for path in order if path not in tree.tests][: variant.top]
    tests = [path for path in order if path in tree.tests][: variant.top]
    score = dict(fused)
    for source in code:
        testers = tree.tested_by.get(source, {})
        total = sum(testers.values())
        for test, edges in testers.items():
            score[test] = score.get(test, 0.0) + variant.tests * fused[source] * edges / total
    for test in tests:
        calls = tree.tests_calls.get(test, {})
        total = sum(calls.values())
        for source, edges in calls.items():
            score[source] = score.get(source, 0.0) + variant.code * fused[test] * edges / total
    return sorted(score, key=lambda path: (-score[path], path))


def _sized_score(
    leg_scores: Mapping[str, float],
    files: FileRanking,
    question: Question,
    path: str,
    variant: Variant,
) -> float:
    scale = (1 + question.tree.symbols.get(path, 0)) ** -variant.size_exponent
    return sum(
        files.weights.get(leg, 1.0) * score * (1.0 if leg == FILE_TEXT else scale)
        for leg, score in leg_scores.items()
    )


def scores(question: Question, ranking: Sequence[str]) -> dict[str, float]:
    wanted = set(question.relevant)
    out = {f"acc@{k}": float(bool(wanted.intersection(ranking[:k]))) for k in KS}
    out.update({f"acc_all@{k}": float(wanted <= set(ranking[:k])) for k in KS})
    return out


def evaluate(questions: Sequence[Question], variant: Variant) -> dict[str, float]:
    totals: dict[str, float] = {}
    for question in questions:
        for metric, value in scores(question, ranked_files(question, variant)).items():
            totals[metric] = totals.get(metric, 0.0) + value
    return {metric: round(total / len(questions), 4) for metric, total in totals.items()}


BEFORE = FileRanking(rrf_k=60.0, weights={"vector": 1.0, "text": 1.0, "graph": 1.0, FILE_TEXT: 3.0})
"""The file ranking of stop 45 (still the default: stop 46's choice did not hold out), which
the variants of `grid` change one thing of."""
TUNED = FileRanking(rrf_k=10.0, weights={"vector": 1.0, "text": 1.0, "graph": 0.25, FILE_TEXT: 3.0})
"""Stop 46's choice on click and requests (the best mean strict Acc@5 of `joint_grid`)."""


def grid() -> Iterator[Variant]:
    """Variants of the ranking before stop 46: the fusion constant with the decay, test files
    lifted by the code files they test (and back), files' symbol legs scaled down by size."""
    yield Variant("default")
    yield Variant("before stop 46", BEFORE)
    yield Variant("stop 46's choice: k10 graph0.25", TUNED)
    for rrf_k in (5.0, 10.0, 20.0, 30.0):
        for decay in (0.1, 0.25, 0.5):
            files = replace(BEFORE, decay=decay, rrf_k=rrf_k)
            yield Variant(f"before, k{rrf_k:g} decay{decay:g}", files)
    for tests in (0.25, 0.5, 1.0):
        for code in (0.0, 0.25):
            name = f"before, tests{tests:g} code{code:g}"
            yield Variant(name, BEFORE, tests=tests, code=code, top=3)
    for exponent in (0.1, 0.2, 0.3, 0.5):
        yield Variant(f"before, size{exponent:g}", BEFORE, size_exponent=exponent)
    for file_text in (1.0, 2.0, 4.0):
        for exponent in (0.25, 0.5):
            weights = {**BEFORE.weights, FILE_TEXT: file_text}
            yield Variant(
                f"before, size{exponent:g} file_text{file_text:g}",
                replace(BEFORE, weights=weights),
                size_exponent=exponent,
            )


def joint_grid() -> Iterator[Variant]:
    """The fusion constant with the decay and the legs' weights, chosen together."""
    for rrf_k in (1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 60.0):
        for decay in (0.1, 0.25, 0.5):
            for file_text in (1.0, 2.0, 3.0, 4.0):
                for graph in (0.25, 0.5, 1.0, 2.0):
                    weights = {"vector": 1.0, "text": 1.0, "graph": graph, FILE_TEXT: file_text}
                    name = f"k{rrf_k:g} decay{decay:g} file_text{file_text:g} graph{graph:g}"
                    yield Variant(name, FileRanking(decay=decay, weights=weights, rrf_k=rrf_k))


def benchmark_row(repo: str) -> Mapping[str, float] | None:
    summary = RESULTS / repo / "summary.json"
    if not summary.exists():
        return None
    results: Mapping[str, Mapping[str, float]] = json.loads(summary.read_text())["results"]
    return results.get("files")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--grid", action="store_true", help="every variant, not just the default")
    parser.add_argument("--joint-grid", action="store_true", help="k, decay and weights together")
    parser.add_argument("--size-exponent", type=float, help="score this one variant")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    chosen = Variant("stop 46's choice: k10 graph0.25", TUNED)
    variants = list(grid()) if args.grid else [Variant("default"), chosen]
    if args.joint_grid:
        variants += list(joint_grid())
    if args.size_exponent is not None:
        variants.append(Variant(f"size{args.size_exponent:g}", size_exponent=args.size_exponent))
    out: dict[str, Any] = {}
    for repo in args.repos:
        questions = load(LEGS_DUMPS / f"{repo}.jsonl")
        check = benchmark_row(repo)
        if check is not None:
            shown = " / ".join(f"{check.get(f'acc_all@{k}', 0):.3f}" for k in KS)
            print(f"{repo}: the benchmark's files row, acc_all@1/5/10 {shown}")
        out[repo] = {}
        for variant in variants:
            result = evaluate(questions, variant)
            out[repo][variant.name] = result
            print(
                f"{repo} {variant.name:28s} acc_all@1/5/10 "
                + " / ".join(f"{result[f'acc_all@{k}']:.3f}" for k in KS)
                + f"  acc@5 {result['acc@5']:.3f}  ({len(questions)} questions)"
            )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


# -- a learned file ranking: logistic regression over each candidate file's evidence ---------
FEATURES = (
    "fused", "vector_rr", "text_rr", "graph_rr", "file_text_rr", "vector_hits", "text_hits",
    "graph_hits", "log_symbols", "test", "tested_share", "bias",
)  # fmt: skip


def candidates(question: Question) -> list[tuple[str, list[float]]]:
    """Every file some leg found, with its features."""
    ranked = rank_units(question.legs, dict(FileRanking().weights), unit_key(Unit.FILE))
    hits: dict[str, dict[str, int]] = {}
    for leg, entries in question.legs.items():
        for entry in entries:
            if entry["path"]:
                counts = hits.setdefault(entry["path"], {})
                counts[leg] = counts.get(leg, 0) + 1
    fused = {u.key[1]: u.score for u in ranked}
    top_code = [u.key[1] for u in ranked if u.key[1] not in question.tree.tests][:3]
    tested: dict[str, float] = {}
    for source in top_code:
        testers = question.tree.tested_by.get(source, {})
        total = sum(testers.values())
        for test, edges in testers.items():
            tested[test] = tested.get(test, 0.0) + edges / total
    rows = []
    for u in ranked:
        path = u.key[1]
        count = hits.get(path, {})
        rows.append(
            (
                path,
                [
                    60 * fused[path],
                    *(1.0 / u.ranks[leg] if leg in u.ranks else 0.0 for leg in
                      ("vector", "text", "graph", FILE_TEXT)),
                    *(math.log1p(count.get(leg, 0)) for leg in ("vector", "text", "graph")),
                    math.log1p(question.tree.symbols.get(path, 0)),
                    1.0 if path in question.tree.tests else 0.0,
                    tested.get(path, 0.0),
                    1.0,
                ],
            )
        )  # fmt: skip
    return rows


def fit(questions: Sequence[Question], *, l2: float = 1e-3) -> npt.NDArray[np.float64]:
    """Pointwise logistic regression (balanced classes, plain gradient descent)."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for question in questions:
        for path, row in candidates(question):
            xs.append(row)
            ys.append(1.0 if path in question.relevant else 0.0)
    x = np.asarray(xs, dtype=np.float64)
    y = np.asarray(ys, dtype=np.float64)
    positive = max(y.sum(), 1.0)
    weight = np.where(y > 0, len(y) / (2 * positive), len(y) / (2 * max(len(y) - positive, 1)))
    w = np.zeros(x.shape[1])
    for _ in range(5000):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        w -= 0.5 * (x.T @ (weight * (p - y)) / len(y) + l2 * w)
    return w


def learned_ranking(question: Question, w: npt.NDArray[np.float64]) -> list[str]:
    rows = candidates(question)
    scored = sorted(rows, key=lambda r: (-float(np.dot(w, r[1])), r[0]))
    return [path for path, _ in scored[: max(KS)]]


def evaluate_learned(questions: Sequence[Question], w: npt.NDArray[np.float64]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for question in questions:
        for metric, value in scores(question, learned_ranking(question, w)).items():
            totals[metric] = totals.get(metric, 0.0) + value
    return {metric: round(total / len(questions), 4) for metric, total in totals.items()}
