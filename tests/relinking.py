"""Helpers of the incremental-relinking tests: write a small repository file by file, and
check that an incremental run ended where a clean index of the same files ends."""

from __future__ import annotations

import shutil
from pathlib import Path

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import build_graph

from .conftest import wipe
from .test_ingest import dump


def write_file(root: Path, path: str, text: str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text)


def assert_same_as_clean_index(neo4j: Neo4jClient, work: Path, tmp_path: Path, repo: str) -> None:
    """The graph of `repo` (indexed incrementally from `work`) equals a clean index of a copy
    of `work` (wipes the database)."""
    incremental = dump(neo4j, repo)
    clean = tmp_path / "clean"
    shutil.copytree(work, clean)
    wipe(neo4j)
    build_graph(clean, neo4j, repo=repo, state_dir=tmp_path / "state-clean")
    assert dump(neo4j, repo) == incremental
