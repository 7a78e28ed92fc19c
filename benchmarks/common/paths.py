"""Where the benchmarks keep downloads and results: fixed folders of `benchmarks/`, whatever
family folder a script sits in. The oracles compute the same cache folder on their own
(`benchmarks.oracles.packages.CACHE_DIR`: they stay standalone, and the jedi oracle's cache
key hashes its own source, so editing it re-runs jedi)."""

from __future__ import annotations

import os
from pathlib import Path

BENCHMARKS_DIR = Path(__file__).resolve().parents[1]
CHECKOUT = BENCHMARKS_DIR.parent
# GRAPHRAG_CODE_BENCH_CACHE moves it: `./run tests` in a fresh clone keeps what the tests'
# oracles download and compute in the user's cache, as it keeps the server's launcher build
CACHE_DIR = Path(os.environ.get("GRAPHRAG_CODE_BENCH_CACHE") or BENCHMARKS_DIR / "cache")
RESULTS_DIR = BENCHMARKS_DIR / "results"
