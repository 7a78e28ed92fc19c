"""Shared by the issue-16 benchmarks: index a folder into the graph (no embeddings) and map
runtime-oracle locations (file, `def` line) onto graph nodes.

The runtime oracles (`benchmarks/oracles/runtime_tests.py`, format in
`benchmarks/oracles/README.md`) name functions and tests by qualified name, file and the line
of the `def`; the graph's nodes carry a path and a span that starts at the first decorator, so
a location maps onto the innermost node whose span holds that line.
"""

from __future__ import annotations

import json
import tempfile
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.graph import GraphReader, Neo4jClient
from graphrag_code.graph.records import FileNode
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.ingest.report import IngestReport


def index_folder(client: Neo4jClient, root: Path, repo: str) -> IngestReport:
    """A fresh graph of `root` under the name `repo` (embeddings off)."""
    ensure_schema(client, SchemaConfig())
    GraphWriter(client, repo).delete_repository()
    with tempfile.TemporaryDirectory() as state:
        return build_graph(root, client, repo=repo, state_dir=Path(state))


def oracle_files(
    names: Iterable[str], folder: Path = RUNTIME_DIR, suffix: str = ".tests.json"
) -> list[Path]:
    """The oracle outputs to read: those named (`flask-3.0.3`), else every one there is."""
    wanted = list(names)
    if wanted:
        return [folder / f"{name}{suffix}" for name in wanted]
    return sorted(folder.glob(f"*{suffix}"))


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Spans:
    """The graph's nodes of one repository, by file, to map (file, line) onto."""

    by_path: dict[str, list[FileNode]]
    starts: dict[str, list[int]]
    by_name: dict[str, FileNode]

    @classmethod
    def read(cls, reader: GraphReader, repo: str) -> Spans:
        paths = sorted(reader.module_ids(repo))
        nodes: list[FileNode] = []
        for start in range(0, len(paths), 200):
            nodes.extend(reader.file_nodes(repo, paths[start : start + 200]))
        by_path: dict[str, list[FileNode]] = {}
        for node in nodes:
            by_path.setdefault(node.symbol.location.path, []).append(node)
        for found in by_path.values():
            found.sort(key=lambda n: n.symbol.location.start_line or 0)
        return cls(
            by_path=by_path,
            starts={
                p: [n.symbol.location.start_line or 0 for n in found]
                for p, found in by_path.items()
            },
            by_name=_first_definitions(nodes),
        )

    def at(
        self, path: str, line: int, *, kinds: tuple[str, ...] = ("Function", "Method")
    ) -> FileNode | None:
        """The innermost node of `kinds` in `path` whose span holds `line`."""
        found = self.by_path.get(path, [])
        best: FileNode | None = None
        for node in found[: bisect_right(self.starts.get(path, []), line)]:
            location = node.symbol.location
            if node.symbol.kind not in kinds:
                continue
            if (location.start_line or 0) <= line <= (location.end_line or 0) and (
                best is None or (location.start_line or 0) >= (best.symbol.location.start_line or 0)
            ):
                best = node
        return best

    def find(self, qualified_name: str, path: str, line: int) -> FileNode | None:
        """A node by qualified name when the graph names it alike, else by location."""
        named = self.by_name.get(qualified_name)
        if named is not None and named.symbol.location.path == path:
            return named
        return self.at(path, line)


def _first_definitions(nodes: list[FileNode]) -> dict[str, FileNode]:
    """Qualified name -> its first definition: the node edges point at (a redefinition, such
    as an overload's implementation, has an id ending `#2`, `#3`…)."""
    found: dict[str, FileNode] = {}
    for node in sorted(nodes, key=lambda n: "#" in n.symbol.id.rpartition(":")[2]):
        found.setdefault(node.symbol.qualified_name, node)
    return found
