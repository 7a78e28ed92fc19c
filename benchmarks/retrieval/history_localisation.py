"""File-level localisation on the commit histories of real repositories, tuned apart from where
it is reported.

Each repository is cloned from a local bare mirror into `benchmarks/cache/history/` (never
committed), pinned to the commit in `PINS`, and run through `graphrag-code eval history`'s
benchmark: the newest `--max-commits` usable commits, each subject asked of the code at the
commit's parent, scored at file level against the Python files it changed. Ablations: BM25 over
whole files (the baseline, computed by the harness), the symbol-level legs, and
`search(unit="file")`; with `--grid`, also a grid of file-ranking settings (depth per leg,
decay of a file's later hits, graph-leg weight), which is how the defaults were chosen on the
tuning repositories before the others were run.

    .venv/bin/python -m benchmarks.retrieval.history_localisation pallets+click --grid  # tuning
    .venv/bin/python -m benchmarks.retrieval.history_localisation \
        pallets+flask encode+httpx psf+requests

With `--dump-legs`, each question's file-level evidence is also written to `LEGS_DUMPS`, for
`benchmarks.retrieval.history_units_offline` to rank again under other settings without indexing. A
run writes its results over the committed ones in `benchmarks/results/history/<repo>/`.

Uses `connect(load_settings())` (NEO4J_URI or the managed server) and the configured embedder
(GRAPHRAG_CODE_EMBEDDER).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console

from benchmarks.common.paths import CHECKOUT
from graphrag_code.cli.progress import RichProgress
from graphrag_code.codegraph import CodeGraph
from graphrag_code.evaluation.ablation import Ablation
from graphrag_code.evaluation.history import (
    ABLATIONS,
    HistoryOptions,
    HistoryQuestion,
    build_questions,
    run_history_benchmark,
    write_history_report,
)
from graphrag_code.evaluation.runlog import RunLog
from graphrag_code.retrieval.search import FILE_TEXT, LEGS
from graphrag_code.retrieval.units import FileRanking, Unit
from graphrag_code.runtime.git import git

CACHE = CHECKOUT / "benchmarks" / "cache" / "history"
LEGS_DUMPS = CACHE / "legs"
"""Where `--dump-legs` writes each question's raw file-level evidence (JSON lines), for
`benchmarks.retrieval.history_units_offline`."""
RESULTS = CHECKOUT / "benchmarks" / "results" / "history"
MIRRORS = Path("/work/.mirror")

PINS = {
    "pallets+click": "2c8cd3ac958a7eb316d67f2d316c27086c4c0369",
    "pallets+flask": "2ac89889f4cc330eabd50f295dcef02828522c69",
    "encode+httpx": "ae1b9f66238f75ced3ced5e4485408435de10768",
    "psf+requests": "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e",
    "encode+starlette": "cb8f84f5284dc301ca7a31eb732b9e140769dd48",
    "pallets+werkzeug": "1b00618e787f40dfb21eba29caf8f8be7c8e1d93",
}
"""The newest commit of each mirror when the figures in BENCHMARKS.md were taken."""

REPORTED = ("bm25-files", "full-text", "vector+text", "hybrid", "files", "files: vector+text")


def grid(*, first: bool = True) -> list[Ablation]:
    """File-ranking settings tried on the tuning repositories: depth per leg x decay x
    graph-leg weight (first round), then the graph leg's seeds (second round)."""
    found = []
    for depth in (10, 30, 50) if first else ():
        for decay in (0.0, 0.25, 0.5, 1.0):
            for graph in (0.0, 0.25, 0.5):
                weights = {"vector": 1.0, "text": 1.0, "graph": graph}
                files = FileRanking(depth=depth, decay=decay, weights=weights)
                name = f"files d{depth} decay{decay:g} graph{graph:g}"
                found.append(Ablation(name, LEGS, unit=Unit.FILE, files=files))
    for seed_k in (3, 6, 10):
        for graph in (0.5, 1.0, 2.0):
            weights = {"vector": 1.0, "text": 1.0, "graph": graph}
            files = FileRanking(depth=50, decay=0.25, weights=weights, seed_k=seed_k)
            name = f"files d50 decay0.25 graph{graph:g} seeds{seed_k}"
            found.append(Ablation(name, LEGS, unit=Unit.FILE, files=files))
    return found


def file_text_grid() -> list[Ablation]:
    """The whole-file leg's weight in file ranking (0: files by their symbols alone, the
    ranking before the leg existed); the other settings are the defaults."""
    found = []
    for weight in (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0):
        files = FileRanking(weights={**FileRanking().weights, FILE_TEXT: weight})
        found.append(Ablation(f"files file_text{weight:g}", LEGS, unit=Unit.FILE, files=files))
    return found


_SYMBOLS_PER_FILE = """
MATCH (n:Code {repo: $repo})
WHERE n.path IS NOT NULL AND NOT n:Module
RETURN n.path AS path, count(*) AS symbols, max(coalesce(n.test_code, false)) AS test_code
"""

_FILE_EDGES = """
MATCH (a:Code {repo: $repo})-[r:CALLS|IMPORTS]->(b:Code {repo: $repo})
WHERE a.path IS NOT NULL AND b.path IS NOT NULL AND a.path <> b.path
RETURN a.path AS source, b.path AS target, type(r) AS type, count(*) AS edges
"""


class LegsDump:
    """Writes, per question, the entries of every leg of `search(unit="file")` with the
    default settings (before files are ranked), and per searched tree how many symbols each
    file holds, which files are test code, and how many CALLS and IMPORTS edges join each
    pair of files: enough to score other file rankings of the same evidence offline."""

    def __init__(self, graph: CodeGraph, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._graph, self._handle = graph, path.open("w", encoding="utf-8")
        self._revision: str | None = None

    def __call__(self, repo: str, question: HistoryQuestion, relevant: tuple[str, ...]) -> None:
        if question.revision != self._revision:
            self._revision = question.revision
            rows = self._graph.client.read(_SYMBOLS_PER_FILE, {"repo": repo})
            sizes = {str(row["path"]): int(row["symbols"]) for row in rows}
            tests = sorted(str(row["path"]) for row in rows if row["test_code"])
            edges = [
                [row["source"], row["target"], row["type"], row["edges"]]
                for row in self._graph.client.read(_FILE_EDGES, {"repo": repo})
            ]
            self._write(
                {
                    "type": "tree",
                    "revision": question.revision,
                    "symbols": sizes,
                    "tests": tests,
                    "edges": edges,
                }
            )
        legs = self._graph.searcher.unit_legs(question.text, repo=repo, files=FileRanking())
        self._write(
            {
                "type": "question",
                "id": question.id,
                "text": question.text,
                "revision": question.revision,
                "relevant": list(relevant),
                "legs": {
                    leg: [[e["id"], e.get("path"), e.get("kind")] for e in entries]
                    for leg, entries in legs.items()
                },
            }
        )

    def _write(self, record: dict[str, object]) -> None:
        self._handle.write(json.dumps(record) + "\n")

    def close(self) -> None:
        self._handle.close()


def checkout(name: str) -> Path:
    """A clone of the mirror at `PINS[name]` (the mirror itself is never written)."""
    target = CACHE / name
    if not target.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        mirror = MIRRORS / name / "repo"
        git(CACHE, "clone", "-q", str(mirror), str(target), timeout=None)
    git(target, "checkout", "-q", PINS[name], timeout=None)
    return target


def run(
    name: str,
    *,
    max_commits: int,
    tuning: bool,
    console: Console,
    seeds_only: bool = False,
    file_text: bool = False,
    label: str = "",
    dump_legs: bool = False,
) -> dict[str, object]:
    root = checkout(name)
    options = HistoryOptions(max_questions=max_commits, rev=PINS[name])
    questions = build_questions(root, options)
    tried = grid(first=not seeds_only) if tuning or seeds_only else []
    tried += file_text_grid() if file_text else []
    ablations = [a for a in ABLATIONS if a.name in REPORTED] + tried
    command = (
        ".venv/bin/python -m benchmarks.retrieval.history_localisation"
        + f" {name} --max-commits {max_commits}"
        + (" --grid" if tuning else "")
        + (" --seeds-only" if seeds_only else "")
        + (" --file-text-grid" if file_text else "")
        + (f" --label {label}" if label else "")
    )
    output = RESULTS / name / ("seeds" if seeds_only else "")
    suffix = ("-seeds" if seeds_only else "") + (f"-{label}" if label else "")
    log = RunLog(CACHE / "logs" / f"{name}{suffix}.jsonl", context={"command": command})
    repo = f"{name.replace('+', '-')}{'-' + label if label else ''}-history"
    started = time.perf_counter()
    with CodeGraph() as graph, RichProgress(Console(stderr=True)) as progress:
        dump = LegsDump(graph, LEGS_DUMPS / f"{name}{suffix}.jsonl") if dump_legs else None
        try:
            result = run_history_benchmark(
                questions, graph, repo=repo, ablations=ablations, log=log, progress=progress,
                observe=dump,
            )  # fmt: skip
        finally:
            if dump is not None:
                dump.close()
        embedder = graph.embedder.name if graph.embedder is not None else None
    write_history_report(result, output, command=command, run_log=log.path)
    summary = {
        **result.as_dict(),
        "embedder": embedder,
        "pinned": PINS[name],
        "tuning": tuning,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    (output / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    results = summary["results"]
    assert isinstance(results, dict)
    for ablation in REPORTED:
        row = results.get(ablation, {})
        console.print(
            f"{name}: {ablation:20s} acc_all@1/5/10 "
            + " / ".join(f"{row.get(f'acc_all@{k}', 0):.3f}" for k in (1, 5, 10))
            + "  acc@5 "
            + f"{row.get('acc@5', 0):.3f}",
            highlight=False,
        )
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("repos", nargs="+", choices=sorted(PINS))
    parser.add_argument("--max-commits", type=int, default=150)
    parser.add_argument("--grid", action="store_true", help="also the file-ranking grid")
    parser.add_argument("--seeds-only", action="store_true", help="only the grid's second round")
    parser.add_argument(
        "--file-text-grid", action="store_true", help="also the whole-file leg's weights"
    )
    parser.add_argument("--label", default="", help="a fresh repository name in the graph")
    parser.add_argument(
        "--dump-legs",
        action="store_true",
        help=f"also write each question's leg entries under {LEGS_DUMPS.relative_to(CHECKOUT)}",
    )
    args = parser.parse_args(argv)
    console = Console()
    for name in args.repos:
        run(
            name,
            max_commits=args.max_commits,
            tuning=args.grid,
            console=console,
            seeds_only=args.seeds_only,
            file_text=args.file_text_grid,
            label=args.label,
            dump_legs=args.dump_legs,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
