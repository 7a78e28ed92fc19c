"""BEIR SciFact (test split, 300 queries) end to end through Neo4j: nDCG@10 and Recall@100.

Ingests the corpus as `:Document` nodes (corpus "scifact"), embeds it with the offline MiniLM
(minutes on two cores the first time; vectors are cached in the graph after that), then runs
every query once per full-text variant (layout x analyzer x title boost), both legs in one
Cypher query at depth 100, and scores full-text only, vector only and RRF fusions computed
from the same legs. Every pass is recorded under benchmarks/results/scifact-*.jsonl.

    .venv/bin/python benchmarks/scifact.py                 # the full sweep (Markdown table)
    .venv/bin/python benchmarks/scifact.py --quick         # default variant only
    .venv/bin/python benchmarks/scifact.py --max-tokens 256   # MiniLM's usual truncation

The runner lives in `graphrag_code.eval.scifact` (also `graphrag-code eval scifact`); this
script keeps the repository's paths and output files.

Uses `connect(load_settings())`: NEO4J_URI, else the managed local server.
Evaluation data: SciFact is CC BY-NC 2.0 (Wadden et al., EMNLP 2020); see its README.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from graphrag_code.eval.scifact import run_scifact

# shared/ sits beside the checkout (here and in CI).
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact"
RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--quick", action="store_true", help="only the default variant")
    parser.add_argument("--max-tokens", type=int, default=512, help="MiniLM truncation")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    command = " ".join([".venv/bin/python benchmarks/scifact.py", *sys.argv[1:]])
    run = run_scifact(
        args.data,
        out=args.out,
        command=command,
        max_tokens=args.max_tokens,
        quick=args.quick,
        console=Console(stderr=True),
    )
    print(run.text())
    run.write(args.out)


if __name__ == "__main__":
    main()
