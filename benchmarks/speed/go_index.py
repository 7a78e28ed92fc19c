"""The full index through Neo4j for Go (BENCHMARKS §19, §2b's measure), and incremental runs
that must end where a clean index ends: a method added in another file of its package.

Per pinned Go module (`benchmarks.oracles.go_oracle`; its copy in the cache, the oracle run
once): `build_graph` on a copy, embeddings off, on a throwaway local Neo4j (never the user's
server), timed with its stages; then, incrementally: no change; a call `x.BenchmarkAdded()`
added to a method of `--type` in `--file` (it resolves to nothing yet); the method
`BenchmarkAdded` declared in a new file of the same package (the unchanged caller must be
linked again). After those, the graph is dumped, the repository deleted and a clean index of
the same files written: `incremental_equals_clean` says whether every node, edge and property
is the same. Trees given with `--baseline` (a Python and a TypeScript one) are indexed the
same way in the same run, for files/s beside them.

    .venv/bin/python -m benchmarks.speed.go_index cobra:command.go:Command \
        gin:context.go:Context --baseline benchmarks/cache/src/flask-3.0.3 \
        --repeat 3 --json benchmarks/results/go_index_speed.json
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common.graph_dump import repository_dump
from benchmarks.oracles.go_oracle import GO_MODULES, module_root
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.ingest.report import IngestReport
from graphrag_code.runtime.server.endpoints import temporary_local_server
from graphrag_code.settings import load_settings

ADDED = "BenchmarkAdded"
_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)


class GoIndexError(RuntimeError):
    """A module is not in the cache, or the file or type to edit is not there."""


def _full(
    client: Neo4jClient, tree: Path, repo: str, state: Path, repeat: int = 1
) -> dict[str, Any]:
    """A full index (the best of `repeat`, each from an empty repository and state); the
    state of the last one stays in `state`."""
    best: tuple[float, IngestReport] | None = None
    for _ in range(repeat):
        GraphWriter(client, repo).delete_repository()
        shutil.rmtree(state, ignore_errors=True)
        started = time.perf_counter()
        report = build_graph(tree, client, repo=repo, state_dir=state)
        seconds = time.perf_counter() - started
        if best is None or seconds < best[0]:
            best = (seconds, report)
    assert best is not None
    seconds, report = best
    return {
        "files": report.files_total,
        "languages": {name: c.as_dict() for name, c in report.languages.items()},
        "symbols": report.symbols,
        "edges": sum(report.edges.values()),
        "full_seconds": round(seconds, 2),
        "files_per_second": round(report.files_total / seconds, 1),
        "stages": {k: round(v, 2) for k, v in report.seconds.items()},
    }


def _timed(client: Neo4jClient, tree: Path, repo: str, state: Path) -> dict[str, Any]:
    started = time.perf_counter()
    report: IngestReport = build_graph(tree, client, repo=repo, state_dir=state)
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "mode": report.mode,
        "parsed_files": report.files_parsed,
        "relinked_files": report.files_relinked,
    }


def _add_call(path: Path, type_name: str) -> None:
    """`_ = x.BenchmarkAdded()` as the first statement of the first method of the type."""
    text = path.read_text()
    header = re.search(
        rf"^func \((\w+) \*?{re.escape(type_name)}\) \w+\([^\n]*\{{\n", text, re.MULTILINE
    )
    if header is None:
        raise GoIndexError(f"no method of {type_name} with a body in {path}")
    call = f"\t_ = {header.group(1)}.{ADDED}()\n"
    path.write_text(text[: header.end()] + call + text[header.end() :])


def _add_method(path: Path, type_name: str) -> Path:
    """The method, declared in a new file of the package of `path`."""
    package = _PACKAGE.search(path.read_text())
    if package is None:
        raise GoIndexError(f"no package clause in {path}")
    added = path.parent / "zz_benchmark_added.go"
    added.write_text(
        f"package {package.group(1)}\n\n// {ADDED} was added by the benchmark.\n"
        f"func (x *{type_name}) {ADDED}() int {{\n\treturn 1\n}}\n"
    )
    return added


def _called(client: Neo4jClient, repo: str) -> int:
    rows = client.read(
        "MATCH (s:Code {repo: $repo})-[r:CALLS]->(t:Code {repo: $repo}) "
        "WHERE t.name = $name RETURN count(r) AS n",
        {"repo": repo, "name": ADDED},
    )
    return int(rows[0]["n"])


def _source(name: str) -> Path:
    """The cached copy of a pinned module (by its short name), or a folder."""
    entry = next((m for m in GO_MODULES if m.name == name), None)
    source = module_root(entry) if entry is not None else Path(name)
    if not source.is_dir():
        raise GoIndexError(f"{source} is missing: run benchmarks.oracles.go_oracle {name} first")
    return source


def run_module(client: Neo4jClient, spec: str, work: Path, repeat: int = 1) -> dict[str, Any]:
    """Full index and the incremental runs of one `name:file:Type`."""
    name, file, type_name = spec.split(":")
    entry = next((m for m in GO_MODULES if m.name == name), None)
    source = _source(name)
    tree = work / source.name
    shutil.copytree(source, tree, ignore=shutil.ignore_patterns(".copied-ok"))
    repo = f"bench-go-{name}"
    state = work / f"state-{name}"
    result: dict[str, Any] = {
        "module": entry.spec if entry else name,
        **_full(client, tree, repo, state, repeat),
    }
    incremental = {"no_change": _timed(client, tree, repo, state)}
    _add_call(tree / file, type_name)
    incremental["call_added"] = {
        **_timed(client, tree, repo, state),
        "edges": _called(client, repo),
    }
    _add_method(tree / file, type_name)
    incremental["method_added_in_another_file"] = {
        **_timed(client, tree, repo, state),
        "edges": _called(client, repo),
    }
    after = repository_dump(client, repo)
    GraphWriter(client, repo).delete_repository()
    clean = build_graph(tree, client, repo=repo, state_dir=work / f"clean-{name}")
    result["incremental"] = incremental
    result["clean_mode"] = clean.mode
    result["incremental_equals_clean"] = repository_dump(client, repo) == after
    GraphWriter(client, repo).delete_repository()
    return result


def run(specs: list[str], baselines: list[Path], repeat: int = 1) -> dict[str, Any]:
    settings = load_settings()
    out: dict[str, Any] = {"modules": [], "baselines": []}
    with (
        temporary_local_server(settings) as (_server, endpoint),
        Neo4jClient(endpoint) as client,
        tempfile.TemporaryDirectory() as tmp,
    ):
        ensure_schema(
            client,
            SchemaConfig(
                vector_index=settings.vector_index, fulltext_index=settings.fulltext_index
            ),
        )
        # a first index warms the fresh server (its first writes ran 4x slower): not counted
        warm = Path(tmp) / "warm-up"
        shutil.copytree(_source(specs[0].split(":")[0]), warm)
        _full(client, warm, "bench-go-warm-up", Path(tmp) / "state-warm-up")
        GraphWriter(client, "bench-go-warm-up").delete_repository()
        for spec in specs:
            out["modules"].append(run_module(client, spec, Path(tmp), repeat))
        for tree in baselines:
            repo = f"bench-base-{tree.name}"
            copy = Path(tmp) / tree.name
            shutil.copytree(tree, copy)
            out["baselines"].append(
                {
                    "tree": tree.name,
                    **_full(client, copy, repo, Path(tmp) / f"state-{repo}", repeat),
                }
            )
            GraphWriter(client, repo).delete_repository()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("modules", nargs="+", help="name:file:Type (cobra:command.go:Command)")
    parser.add_argument("--baseline", nargs="*", type=Path, default=[])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--repeat", type=int, default=1, help="full indexes: the best of N")
    args = parser.parse_args()
    try:
        result = run(args.modules, args.baseline, max(1, args.repeat))
    except GoIndexError as error:
        raise SystemExit(f"go_index: {error}") from None
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
