"""Throughput and peak memory of an offline embedder alone (MiniLM by default), on real code.

Documents are functions of 20-60 lines from the installed standard library (the source of the
running interpreter), embedded as written. Every (max_tokens, batch_size) runs in a fresh
subprocess so that its peak RSS (`ru_maxrss`) is its own. Model loading and a warm-up batch
are not timed.

    .venv/bin/python benchmarks/speed/embedding_throughput.py [--texts 300] [--batch-sizes 8 16 32]
        [--max-tokens 128 256] [--repeats 3] [--embedder minilm|bge-small|e5-small]
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import resource
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

from graphrag_code.embedding import Embedder, JarEmbedder, MiniLMEmbedder
from graphrag_code.settings import load_settings


def stdlib_functions(count: int, *, min_lines: int = 20, max_lines: int = 60) -> list[str]:
    """`count` function sources from the top-level stdlib modules, in a fixed random order."""
    functions: list[str] = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        lines = source.splitlines()
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            end = node.end_lineno or node.lineno
            if min_lines <= end - node.lineno + 1 <= max_lines:
                functions.append(textwrap.dedent("\n".join(lines[node.lineno - 1 : end])))
    random.Random(0).shuffle(functions)
    return functions[:count]


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _embedder(name: str, max_tokens: int, batch_size: int) -> Embedder:
    if name == "minilm":
        return MiniLMEmbedder(max_tokens=max_tokens, batch_size=batch_size)
    cache = load_settings().cache_dir
    return JarEmbedder(name, cache_dir=cache, max_tokens=max_tokens, batch_size=batch_size)


def worker(
    name: str, max_tokens: int, batch_size: int, count: int, repeats: int
) -> dict[str, float]:
    texts = stdlib_functions(count)
    embedder = _embedder(name, max_tokens, batch_size)
    embedder.embed_documents(texts[:batch_size])  # load + warm up
    walls, cpus = [], []
    for _ in range(repeats):  # best of n: other processes only ever make a run slower
        start, cpu = time.perf_counter(), _cpu_seconds()
        embedder.embed_documents(texts)
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu_seconds() - cpu)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {
        "texts": len(texts),
        "seconds": min(walls),
        "texts_per_s": len(texts) / min(walls),
        "cpu_ms_per_text": 1000 * min(cpus) / len(texts),
        "peak_rss_mib": peak_kib / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, nargs="+", default=[128, 256])
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[8, 16, 32])
    parser.add_argument("--embedder", default="minilm", help="minilm, bge-small or e5-small")
    parser.add_argument("--worker", nargs=2, type=int, metavar=("MAX_TOKENS", "BATCH_SIZE"))
    args = parser.parse_args()
    if args.worker:
        result = worker(args.embedder, args.worker[0], args.worker[1], args.texts, args.repeats)
        print(json.dumps(result))
        return

    command = " ".join(["python", "benchmarks/speed/embedding_throughput.py", *sys.argv[1:]])
    print(f"{args.embedder} (int8 ONNX) on {args.texts} stdlib functions of 20-60 lines")
    print(f"command: `{command}`\n")
    print(f"best of {args.repeats} runs; CPU ms/text is user+sys time, which load barely moves\n")
    print("| max tokens | batch size | texts | seconds | texts/s | CPU ms/text | peak RSS (MiB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for max_tokens in args.max_tokens:
        for batch_size in args.batch_sizes:
            worker_args = ["--worker", str(max_tokens), str(batch_size)]
            worker_args += ["--texts", str(args.texts), "--repeats", str(args.repeats)]
            worker_args += ["--embedder", args.embedder]
            run = subprocess.run(
                [sys.executable, __file__, *worker_args],
                capture_output=True,
                text=True,
                check=True,
            )
            result = json.loads(run.stdout.strip().splitlines()[-1])
            print(
                f"| {max_tokens} | {batch_size} | {result['texts']} | {result['seconds']:.1f} "
                f"| {result['texts_per_s']:.1f} | {result['cpu_ms_per_text']:.0f} "
                f"| {result['peak_rss_mib']:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
