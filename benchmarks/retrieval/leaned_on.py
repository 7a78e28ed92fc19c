"""What answers lean on (issue 50): for every function and method of a package, its callers
by default (certain edges; possible ones only when nothing certain exists) against
`possible=True` (every tier), and a one-line edit's `diff` (affected symbols and tests to
run, certain first), on a throwaway local Neo4j.

    python -m benchmarks.retrieval.leaned_on benchmarks/cache/src/attrs-24.2.0 \\
        benchmarks/cache/src/rich-13.9.4 --edit attrs-24.2.0:src/attr/validators.py:100

Each package is indexed from a git copy in a temporary folder; `--edit PACKAGE:FILE:LINE`
then adds a word to that line's string and reports `diff` (default and `possible=True`).
Prints one JSON object per package.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import AmbiguousSymbolError, SymbolNotFoundError
from graphrag_code.graph import GraphReader
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.impact.blast import BlastOptions, blast_radius
from graphrag_code.impact.records import ChangedSymbol
from graphrag_code.location import Location
from graphrag_code.runtime.server.endpoints import temporary_local_server
from graphrag_code.settings import Settings

_FUNCTIONS = (
    "MATCH (n:Code {repo: $repo}) WHERE n.kind IN ['Function', 'Method'] "
    "RETURN n.qualified_name AS name ORDER BY name"
)


def callers_counts(graph: CodeGraph, repo: str) -> dict[str, Any]:
    """Callers of every function and method of `repo`, default against `possible=True`."""
    names = [row["name"] for row in graph.client.read(_FUNCTIONS, {"repo": repo})]
    leaned: Counter[str] = Counter()
    hidden_tiers: Counter[str] = Counter()
    listed = {"default": 0, "possible": 0}
    hiding = hidden = skipped = 0
    for name in names:
        try:
            default = graph.related("callers", name, repo=repo)
            every = graph.related("callers", name, repo=repo, possible=True)
        except (AmbiguousSymbolError, SymbolNotFoundError):
            skipped += 1
            continue
        leaned[default.leaned_on if default.certain or default.possible else "none"] += 1
        listed["default"] += len(default.certain) + len(default.possible)
        listed["possible"] += len(every.certain) + len(every.possible)
        if default.leaned_on == "certain" and every.possible:
            hiding += 1
            hidden += len(every.possible)
            hidden_tiers.update(r.resolution or "override" for r in every.possible)
    return {
        "functions": len(names),
        "skipped (ambiguous names)": skipped,
        "answers by what they lean on": dict(leaned),
        "callers listed": listed,
        "functions whose default leaves possible callers out": hiding,
        "possible callers left out": hidden,
        "left out, by tier of the last edge": dict(hidden_tiers.most_common()),
    }


_BODIES = (
    "MATCH (n:Code {repo: $repo}) WHERE n.kind IN ['Function', 'Method'] "
    "AND NOT coalesce(n.test_code, false) "
    "RETURN n.id AS id, n.qualified_name AS name, n.kind AS kind, n.path AS path, "
    "n.start_line AS start, n.end_line AS end ORDER BY name"
)


def blast_counts(graph: CodeGraph, repo: str) -> dict[str, Any]:
    """`diff`'s affected code (depth 2) of a body edit of every function and method outside
    the tests: by default (possible reach listed, not walked from) against walking on."""
    reader = GraphReader(graph.client)
    totals = {"default": Counter[str](), "possible": Counter[str]()}
    grew = mixed = 0
    for row in graph.client.read(_BODIES, {"repo": repo}):
        change = ChangedSymbol(
            row["name"], row["kind"], "modified", ("body",),
            Location(row["path"], row["start"], row["end"]), "python", row["id"],
            public=True, test_code=False,
        )  # fmt: skip
        sizes = []
        for label, possible in (("default", False), ("possible", True)):
            found, _ = blast_radius(reader, repo, [change], {}, BlastOptions(possible=possible))
            totals[label].update(certain=sum(a.certain for a in found))
            totals[label].update(possible=sum(not a.certain for a in found))
            sizes.append(len(found))
        # main before issue 50 walked on (possible=True) and ranked by distance first
        before = sorted(found, key=lambda a: (a.distance, not a.certain))
        mixed += not _certain_first([a.certain for a in before])
        grew += sizes[1] > sizes[0]
    return {
        "affected (certain, possible), summed over every body edit": {
            label: [counts["certain"], counts["possible"]] for label, counts in totals.items()
        },
        "edits whose affected code grows when possible edges are walked on": grew,
        "edits where distance first (the order before) put a possible one above a certain": (mixed),
    }


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", *args],
        cwd=root, check=True, capture_output=True,
    )  # fmt: skip


def git_copy(source: Path, folder: Path) -> Path:
    """`source` copied into `folder` as a git repository of one commit (what `diff` reads)."""
    root = folder / source.name
    shutil.copytree(source, root)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    return root


def diff_example(graph: CodeGraph, root: Path, file: str, line: int) -> dict[str, Any]:
    """`diff` of a one-line edit (a word added to the line's string) in the git copy `root`."""
    path = root / file
    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace('."', ' (edited)."', 1)
    path.write_text("".join(lines))
    answers = {}
    for label, possible in (("default", False), ("possible=True", True)):
        impact = graph.diff(path=root, repo=root.name, update=not possible, possible=possible)
        answers[label] = {
            "changed": [c.qualified_name for c in impact.changes],
            "affected": len(impact.affected),
            "affected certain": sum(a.certain for a in impact.affected),
            "affected certain first": _certain_first([a.certain for a in impact.affected]),
            "tests": len(impact.tests),
            "tests certain": sum(t.certain for t in impact.tests),
            "tests certain first": _certain_first([t.certain for t in impact.tests]),
            "first tests": [f"{t.runner_id} ({'certain' if t.certain else 'possible'})"
                            for t in impact.tests[:5]],
        }  # fmt: skip
    return answers


def _certain_first(flags: list[bool]) -> bool:
    return flags == sorted(flags, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="+", type=Path, help="extracted package folders")
    parser.add_argument("--edit", help="PACKAGE:FILE:LINE, a one-line edit to `diff`")
    args = parser.parse_args()
    settings = Settings(embedder="hashing")
    with (
        tempfile.TemporaryDirectory(prefix="leaned-on-") as folder,
        temporary_local_server(settings, heap="1g", pagecache="512m") as (_server, endpoint),
        Neo4jClient(endpoint) as client,
    ):
        graph = CodeGraph(settings, client=client, embedder=HashingEmbedder())
        roots = {}
        for package in args.packages:
            root = roots[package.name] = git_copy(package.resolve(), Path(folder))
            graph.index(root, root.name, embed=False)
            counts = callers_counts(graph, root.name)
            blast = blast_counts(graph, root.name)
            print(json.dumps({"package": root.name, "callers": counts, "diff": blast}, indent=1))
        if args.edit:
            name, file, line = args.edit.split(":")
            example = diff_example(graph, roots[name], file, int(line))
            print(json.dumps({"diff": args.edit, **example}, indent=1), flush=True)


if __name__ == "__main__":
    main()
