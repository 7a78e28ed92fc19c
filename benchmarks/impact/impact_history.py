"""Tests to run, judged by a repository's own history (issue 16).

For the latest commits that change source code and tests together, the repository is checked
out at the commit and indexed (incrementally from one commit to the next), the commit is read
as a diff, and the tests predicted for its *source* changes alone (test files left out of
the question) are compared with the test functions the commit itself changed or added: the
share of those tests found in our top 10 and top 20, and the share of commits where all of
them are.

    .venv/bin/python -m benchmarks.impact.impact_history /tmp/click --commits 60 [--json out.json]

The path is a git clone (e.g. `git clone /work/.mirror/pallets+click/repo /tmp/click`); the
script checks out commits in a copy of it, never in the clone itself.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_code.api import delete_repository
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.impact import DiffSpec, GraphSide, analyse_changes, change_tests, read_changes
from graphrag_code.runtime.git import git
from graphrag_code.settings import load_settings

__all__ = ["CommitResult", "summarise"]

_KS = (10, 20)


def _git(root: Path, *args: str) -> str:
    return git(root, *args, timeout=None).stdout


def _is_test(path: str) -> bool:
    name = path.rpartition("/")[2]
    return (
        "tests/" in path
        or path.startswith("test/")
        or name.startswith("test_")
        or name == "conftest.py"
    )


def candidates(root: Path, limit: int) -> list[str]:
    """The latest `limit` non-merge commits touching both test and non-test Python files,
    oldest first."""
    log = _git(root, "log", "--no-merges", "--format=@%H", "--name-only", "-M")
    found: list[str] = []
    commit, files = "", list[str]()
    for line in [*log.splitlines(), "@"]:
        if line.startswith("@"):
            python = [f for f in files if f.endswith(".py")]
            if commit and any(_is_test(f) for f in python) and any(not _is_test(f) for f in python):
                found.append(commit)
                if len(found) >= limit:
                    break
            commit, files = line[1:], []
        elif line.strip():
            files.append(line.strip())
    return list(reversed(found))


@dataclass(frozen=True)
class CommitResult:
    commit: str
    source_symbols: int
    changed_tests: int
    predicted: int
    found_at: dict[int, int]  # k -> changed tests among our top k
    index_seconds: float
    diff_seconds: float


def evaluate_commit(graph: CodeGraph, work: Path, repo: str, commit: str) -> CommitResult | None:
    _git(work, "checkout", "-q", "--force", commit)
    started = time.perf_counter()
    graph.index(work, repo, embed=False)
    indexed = time.perf_counter()
    changes = read_changes(work, DiffSpec(revisions=f"{commit}^..{commit}"))
    side = GraphSide(repo=repo, root=str(work), head=commit, updated=True)
    impact = analyse_changes(graph.reader, repo, changes, source=commit, graph=side)
    source = [c for c in impact.changes if not c.test_code and c.kind != "Module" and c.id]
    tests = [c for c in impact.changes if c.test_role == "test" and c.change != "removed" and c.id]
    if not source or not tests:
        return None
    ranked, _untested, _cut, _stale = change_tests(graph.reader, source)
    diffed = time.perf_counter()
    order = [t.id for t in ranked]
    wanted = {c.id for c in tests}
    return CommitResult(
        commit=commit,
        source_symbols=len(source),
        changed_tests=len(wanted),
        predicted=len(order),
        found_at={k: len(wanted & set(order[:k])) for k in _KS},
        index_seconds=round(indexed - started, 2),
        diff_seconds=round(diffed - indexed, 2),
    )


def summarise(results: list[CommitResult]) -> dict[str, Any]:
    summary: dict[str, Any] = {"commits": len(results)}
    for k in _KS:
        summary[f"recall_at_{k}"] = round(
            statistics.fmean(r.found_at[k] / r.changed_tests for r in results), 3
        ) if results else 0.0  # fmt: skip
        summary[f"all_found_at_{k}"] = round(
            sum(r.found_at[k] == r.changed_tests for r in results) / len(results), 3
        ) if results else 0.0  # fmt: skip
    summary["any_predicted"] = round(
        sum(r.predicted > 0 for r in results) / len(results), 3
    ) if results else 0.0  # fmt: skip
    summary["median_diff_seconds"] = (
        statistics.median(r.diff_seconds for r in results) if results else 0.0
    )
    return summary


def run(clone: Path, commits: int) -> dict[str, Any]:
    settings = load_settings()
    repo = f"bench-history-{clone.name}"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / clone.name
        git(work.parent, "clone", "-q", str(clone), str(work), timeout=None)
        chosen = candidates(work, commits)
        cache = settings.model_copy(update={"cache_dir": Path(tmp) / "cache"})
        results: list[CommitResult] = []
        skipped = 0
        with CodeGraph(cache, embedder=HashingEmbedder()) as graph:
            graph.index(work, repo, embed=False, full=True)
            for commit in chosen:
                result = evaluate_commit(graph, work, repo, commit)
                if result is None:
                    skipped += 1
                    continue
                results.append(result)
            delete_repository(repo, client=graph.client, settings=cache)
    return {
        "repository": clone.name,
        "candidates": len(chosen),
        "skipped": skipped,
        "summary": summarise(results),
        "commits": [r.__dict__ for r in results],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("clones", nargs="+", type=Path, help="git clones to read")
    parser.add_argument("--commits", type=int, default=60)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = [run(clone.resolve(), args.commits) for clone in args.clones]
    for result in results:
        s = result["summary"]
        print(
            f"{result['repository']}: {s['commits']} commits (of {result['candidates']}); "
            f"changed tests in top 10 {s['recall_at_10']:.3f} (all: {s['all_found_at_10']:.3f}),"
            f" top 20 {s['recall_at_20']:.3f} (all: {s['all_found_at_20']:.3f})"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
