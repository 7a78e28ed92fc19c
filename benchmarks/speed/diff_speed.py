"""`diff` speed on a Django-sized repository (issue 16: at most 2 s for a 3-file change
after the incremental update).

Django's sdist becomes a git repository and is indexed; three modules get a body edit; the
graph is brought up to date incrementally (timed apart), then `CodeGraph.diff` reads the
working tree against HEAD with the graph as it is (`update=False`), five times; and the whole
`graphrag-code diff --no-update --json` command is timed three times, each in a new process
(with how long rich's JSON highlighter, which printed it before stop 43, takes on its output),
then three times more as `diff --json`, which first brings the graph up to date (it is).

    .venv/bin/python -m benchmarks.speed.diff_speed [--package django==5.1.4] [--json out.json]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks.oracles.packages import download_sdist, extract_sdist, parse_spec
from benchmarks.speed.index_speed import _edit_body
from graphrag_code.api import delete_repository
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.runtime.git import git
from graphrag_code.settings import load_settings

REPO = "bench-diff-speed"
COMMAND_RUNS = 3
EDITED = ("django/db/models/query.py", "django/http/request.py", "django/utils/text.py")


def _git(root: Path, *args: str) -> None:
    git(root, *args, timeout=None, config={"user.name": "bench", "user.email": "bench@example.com"})


def run(spec: str, repeats: int = 5) -> dict[str, Any]:
    name, version = parse_spec(spec)
    source = extract_sdist(name, version, download_sdist(name, version))
    settings = load_settings()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / source.name
        shutil.copytree(source, work)
        _git(work, "init", "-q")
        _git(work, "add", "-A")
        _git(work, "commit", "-q", "-m", "base")
        local = settings.model_copy(update={"cache_dir": Path(tmp) / "cache"})
        with CodeGraph(local, embedder=HashingEmbedder()) as graph:
            started = time.perf_counter()
            full = graph.index(work, REPO, embed=False, full=True)
            full_seconds = time.perf_counter() - started
            for path in EDITED:
                _edit_body(work / path)
            started = time.perf_counter()
            update = graph.index(work, REPO, embed=False)
            update_seconds = time.perf_counter() - started
            timings = []
            impact = None
            for _ in range(repeats):
                started = time.perf_counter()
                impact = graph.diff(path=work, repo=REPO, update=False)
                timings.append(time.perf_counter() - started)
            assert impact is not None
            env = {**os.environ, "GRAPHRAG_CODE_CACHE_DIR": str(Path(tmp) / "cache")}
            commands: list[float] = []
            updating: list[float] = []  # the default: the graph brought up to date first
            for times, flags in ((commands, ["--no-update"]), (updating, [])):
                for _ in range(COMMAND_RUNS):
                    started = time.perf_counter()
                    printed = subprocess.run(
                        [sys.executable, "-m", "graphrag_code.cli.main", "diff", "--path",
                         str(work), "--repo", REPO, *flags, "--json"],
                        check=True, capture_output=True, env=env, text=True,
                    ).stdout  # fmt: skip
                    times.append(time.perf_counter() - started)
            # what printing the same JSON through rich's highlighter (the CLI before stop 43)
            # would add to the command
            started = time.perf_counter()
            Console(file=io.StringIO(), force_terminal=False, width=200).print_json(printed)
            highlight_seconds = time.perf_counter() - started
            delete_repository(REPO, client=graph.client, settings=local)
    return {
        "package": spec,
        "files": full.files_total,
        "symbols": full.symbols,
        "tests": full.tests,
        "full_index_seconds": round(full_seconds, 2),
        "full_index_stages": {k: round(v, 2) for k, v in full.seconds.items()},
        "edited_files": list(EDITED),
        "incremental_update_seconds": round(update_seconds, 2),
        "incremental_update_stages": {k: round(v, 3) for k, v in update.seconds.items()},
        "diff_seconds": [round(t, 3) for t in timings],
        "diff_median_seconds": round(statistics.median(timings), 3),
        "diff_command_seconds": [round(t, 2) for t in commands],
        "diff_command_median_seconds": round(statistics.median(commands), 2),
        # with the update the command runs by default, on a graph already up to date
        "diff_command_with_update_seconds": [round(t, 2) for t in updating],
        "diff_json_kb": round(len(printed.encode()) / 1024, 1),
        "rich_highlight_of_that_json_seconds": round(highlight_seconds, 2),
        "changed_symbols": len(impact.changes),
        "affected": len(impact.affected),
        "tests_to_run": len(impact.tests),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="django==5.1.4")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.package, args.repeats)
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
