"""BEIR SciFact (test split, 300 queries) end to end through Neo4j: nDCG@10 and Recall@100.

Ingests the corpus as `:Document` nodes (corpus "scifact"), embeds it with the offline MiniLM
(minutes on two cores the first time; vectors are cached in the graph after that), then runs
every query once per full-text variant (layout x analyzer x title boost), both legs in one
Cypher query at depth 100, and scores full-text only, vector only and RRF fusions computed
from the same legs. Every pass is recorded under benchmarks/results/scifact-*.jsonl.

    .venv/bin/python -m benchmarks.retrieval.scifact                    # the full sweep (Markdown)
    .venv/bin/python -m benchmarks.retrieval.scifact --quick            # default variant only
    .venv/bin/python -m benchmarks.retrieval.scifact --max-tokens 256   # MiniLM's usual truncation
    .venv/bin/python -m benchmarks.retrieval.scifact --quick --embedder bge-small  # another model

The runner lives in `harness.scifact`; this script finds the data and keeps the repository's
output files. The data: `--data DIR` (BEIR layout), else $GRAPHRAG_CODE_SCIFACT_DIR, else the
first `shared/data/scifact` in or above the checkout (the layout of this project's machines).

Uses `connect(load_settings())`: NEO4J_URI, else the managed local server.
Evaluation data: SciFact is CC BY-NC 2.0 (Wadden et al., EMNLP 2020); see its README.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rich.console import Console

from benchmarks.common.paths import CHECKOUT
from graphrag_code.errors import ConfigurationError
from harness.scifact import run_scifact

RESULTS = CHECKOUT / "benchmarks" / "results"


def find_data(given: Path | None) -> Path:
    """--data, else $GRAPHRAG_CODE_SCIFACT_DIR, else shared/data/scifact in or above the
    checkout."""
    if given is not None:
        return given
    if os.environ.get("GRAPHRAG_CODE_SCIFACT_DIR"):
        return Path(os.environ["GRAPHRAG_CODE_SCIFACT_DIR"])
    for folder in (CHECKOUT, *CHECKOUT.parents):
        candidate = folder / "shared" / "data" / "scifact"
        if (candidate / "corpus.jsonl").is_file():
            return candidate
    raise ConfigurationError(
        "no SciFact data found: pass --data DIR (BEIR layout) or set GRAPHRAG_CODE_SCIFACT_DIR"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, help="BEIR folder (see above for the default)")
    parser.add_argument("--quick", action="store_true", help="only the default variant")
    parser.add_argument("--max-tokens", type=int, default=512, help="embedder truncation")
    parser.add_argument(
        "--embedder", default="minilm", help="minilm, bge-small or e5-small (default minilm)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    data = find_data(args.data)
    given = sys.argv[1:] if argv is None else argv
    command = " ".join([".venv/bin/python -m benchmarks.retrieval.scifact", *given])
    run = run_scifact(
        data,
        out=args.out,
        command=command,
        max_tokens=args.max_tokens,
        quick=args.quick,
        console=Console(stderr=True),
        embedder_name=args.embedder,
    )
    written = run.write(args.out)
    if args.json:
        timings = {"query_median": run.query_median_ms, "embed_median": run.embed_median_ms}
        files = [str(path) for path in [run.log_path, *written]]
        print(json.dumps({**run.as_dict(), "timings_ms": timings, "files": files}, indent=2))
    else:
        print(run.text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
