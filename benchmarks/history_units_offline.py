"""File rankings of the history questions scored offline, from the legs `--dump-legs` recorded.

`benchmarks.history_localisation REPO --dump-legs` writes, for every question, the entries of
each leg of `search(unit="file")` (before files are ranked) and, for every searched tree, how
many symbols each file holds. This script ranks the same evidence with `rank_units` under
variants of the file ranking and scores strict Acc@k (every changed file in the top k) and
Acc@k (any), as `eval history` does, in seconds instead of an index run per setting. Its row
`default` must equal the benchmark's `files` row; it is printed beside it as a check.

    .venv/bin/python -m benchmarks.history_units_offline pallets+click psf+requests --grid

Variants: `size` divides a file's symbol-leg scores by (1 + its symbols) ** exponent, so a
file with dozens of weakly matching symbols no longer outweighs a small file with one strong
hit (the whole-file leg is left as it is: BM25 already normalises a document's length).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.history_localisation import LEGS_DUMPS, RESULTS
from graphrag_code.retrieval.search import FILE_TEXT
from graphrag_code.retrieval.units import FileRanking, Unit, rank_units, unit_key

KS = (1, 5, 10)


@dataclass(frozen=True)
class Question:
    text: str
    relevant: tuple[str, ...]
    legs: dict[str, list[dict[str, Any]]]
    symbols: Mapping[str, int]  # path -> symbols in the searched tree


@dataclass(frozen=True)
class Variant:
    """A file ranking: the product's settings, plus the size normalisation tried here."""

    name: str
    files: FileRanking = field(default_factory=FileRanking)
    size_exponent: float = 0.0


def load(path: Path) -> list[Question]:
    questions: list[Question] = []
    symbols: dict[str, int] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["type"] == "tree":
                symbols = record["symbols"]
                continue
            legs = {
                leg: [{"id": i, "path": p, "kind": k, "repo": ""} for i, p, k in entries]
                for leg, entries in record["legs"].items()
            }
            questions.append(Question(record["text"], tuple(record["relevant"]), legs, symbols))
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
    return [u.key[1] for u in ranked[: max(KS)]]


def _sized_score(
    leg_scores: Mapping[str, float],
    files: FileRanking,
    question: Question,
    path: str,
    variant: Variant,
) -> float:
    scale = (1 + question.symbols.get(path, 0)) ** -variant.size_exponent
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


def grid() -> Iterator[Variant]:
    yield Variant("default")
    for exponent in (0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0):
        yield Variant(f"size{exponent:g}", size_exponent=exponent)
    for file_text in (1.0, 2.0, 4.0):
        for exponent in (0.25, 0.5):
            weights = {**FileRanking().weights, FILE_TEXT: file_text}
            yield Variant(
                f"size{exponent:g} file_text{file_text:g}",
                FileRanking(weights=weights),
                size_exponent=exponent,
            )


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
    parser.add_argument("--size-exponent", type=float, help="score this one variant")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    variants = list(grid()) if args.grid else [Variant("default")]
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
