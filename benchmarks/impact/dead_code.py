"""Our dead-code list judged by running code, side by side with vulture (issue 16).

For each package with a runtime oracle (`<name>-<version>.tests.json`: the functions its own
test suite never executed) and a vulture baseline (`<name>-<version>.vulture.json`, written by
the oracle scripts), the source tree is indexed and `CodeGraph.dead_code` listed; an item of
either list is *confirmed* when the suite never executed it, *refuted* when some test did, and
*not judged* when the oracle does not list it (a class, a file outside the package). Also
writes a random sample of our items (seeded) for checking by hand.

    .venv/bin/python -m benchmarks.impact.dead_code [flask-3.0.3 ...] [--min-confidence 0.5] \
        [--json out.json] [--sample 50 --sample-out benchmarks/results/dead_code_sample.md]
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common.runtime_oracle import index_folder, load_json, oracle_files
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.api import connect
from graphrag_code.graph import GraphReader
from graphrag_code.impact import DeadSymbol, dead_code
from graphrag_code.settings import load_settings

__all__ = ["Verdicts", "judge_items", "vulture_items"]


@dataclass
class Verdicts:
    items: int = 0
    confirmed: int = 0  # the suite never executed it
    refuted: int = 0  # some test executed it
    not_judged: int = 0

    @property
    def precision(self) -> float:
        judged = self.confirmed + self.refuted
        return round(self.confirmed / judged, 4) if judged else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "precision": self.precision}


class _Truth:
    """The oracle's verdict on a location: executed, never executed, or not listed."""

    def __init__(self, oracle: Mapping[str, Any]) -> None:
        # not executed at all; a function run only at import or collection time
        # (`executed_outside_tests`) ran, so it is not dead
        never = set(oracle.get("never_executed", []))
        self.by_name = {name: name in never for name in oracle["functions"]}
        for name in never:
            self.by_name.setdefault(name, True)
        self.by_line = {
            (f["file"], f["line"]): self.by_name[name] for name, f in oracle["functions"].items()
        }

    def never_ran(self, qualified_name: str, path: str, lines: Iterable[int]) -> bool | None:
        if qualified_name in self.by_name:
            return self.by_name[qualified_name]
        for line in lines:
            if (path, line) in self.by_line:
                return self.by_line[(path, line)]
        return None


def judge_items(items: Iterable[tuple[str, str, Iterable[int]]], truth: _Truth) -> Verdicts:
    """Count (qualified name, path, candidate def lines) items the oracle confirms."""
    verdicts = Verdicts()
    for name, path, lines in items:
        verdicts.items += 1
        never = truth.never_ran(name, path, lines)
        if never is None:
            verdicts.not_judged += 1
        elif never:
            verdicts.confirmed += 1
        else:
            verdicts.refuted += 1
    return verdicts


def vulture_items(baseline: Any, root: str) -> list[tuple[str, str, list[int]]]:
    """Functions, methods and classes of a vulture baseline, read tolerantly: a list of
    findings or a mapping holding one; each with a file, a line and a name."""
    if isinstance(baseline, Mapping):
        baseline = next(
            (baseline[k] for k in ("findings", "items", "unused", "results") if k in baseline), []
        )
    items = []
    for finding in baseline:
        kind = str(finding.get("type") or finding.get("typ") or "")
        if kind and kind not in ("function", "method", "class", "property"):
            continue
        path = str(finding.get("file") or finding.get("filename") or finding.get("path") or "")
        path = path.split(f"{root}/", 1)[-1]
        line = int(finding.get("line") or finding.get("first_lineno") or 0)
        name = str(finding.get("qualified_name") or finding.get("name") or "")
        items.append((name, path, [line]))
    return items


def _ours(found: list[DeadSymbol]) -> list[tuple[str, str, list[int]]]:
    return [
        (
            d.qualified_name,
            d.location.path,
            list(
                range(
                    d.location.start_line or 0,
                    min(d.location.end_line or 0, (d.location.start_line or 0) + 12) + 1,
                )
            ),
        )
        for d in found
    ]


def evaluate(oracle_path: Path, min_confidence: float) -> tuple[dict[str, Any], list[DeadSymbol]]:
    oracle = load_json(oracle_path)
    truth = _Truth(oracle)
    root = oracle_path.parent / oracle["root"]
    repo = f"bench-dead-{oracle['package']}"
    with connect(load_settings()) as client:
        index_folder(client, root, repo)
        found = dead_code(GraphReader(client), repo, min_confidence=min_confidence)
    package_prefix = (oracle.get("import_root") or "").strip("/")
    ours = [
        d for d in found if not package_prefix or d.location.path.startswith(package_prefix + "/")
    ]
    result: dict[str, Any] = {
        "package": f"{oracle['package']}-{oracle['version']}",
        "never_executed": len(oracle.get("never_executed", [])),
        "ours": judge_items(_ours(ours), truth).as_dict(),
    }
    baseline = oracle_path.with_name(oracle_path.name.replace(".tests.json", ".vulture.json"))
    if baseline.exists():
        result["vulture"] = judge_items(
            vulture_items(load_json(baseline), oracle["root"]), truth
        ).as_dict()
    return result, ours


def _sample_markdown(sample: list[tuple[str, DeadSymbol]]) -> str:
    lines = [
        "# Dead code: a random sample checked by hand",
        "",
        "| # | package | symbol | confidence | location | verdict | reason |",
        "|---|---|---|---|---|---|---|",
    ]
    for number, (package, item) in enumerate(sample, start=1):
        lines.append(
            f"| {number} | {package} | `{item.qualified_name}` | {item.confidence:.2f} | "
            f"`{item.location}` |  |  |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="*", help="oracle names such as flask-3.0.3")
    parser.add_argument(
        "--oracle-dir", type=Path, default=RUNTIME_DIR, help="where the oracle outputs lie"
    )
    parser.add_argument("--min-confidence", type=float, default=0.5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--sample", type=int, default=0, help="items to sample for a hand check")
    parser.add_argument("--sample-out", type=Path)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    results: list[dict[str, Any]] = []
    pool: list[tuple[str, DeadSymbol]] = []
    for path in oracle_files(args.packages, args.oracle_dir):
        result, ours = evaluate(path, args.min_confidence)
        results.append(result)
        pool.extend((result["package"], item) for item in ours)
        vulture = result.get("vulture", {})
        print(
            f"{result['package']}: ours {result['ours']['items']} items, precision "
            f"{result['ours']['precision']:.3f}; vulture {vulture.get('items', '-')} items, "
            f"precision {vulture.get('precision', '-')}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    if args.sample and args.sample_out:
        sample = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
        args.sample_out.write_text(_sample_markdown(sample))


if __name__ == "__main__":
    main()
