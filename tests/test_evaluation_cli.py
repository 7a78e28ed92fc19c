"""`graphrag-code eval history` in process, against the real Neo4j (hashing embedder)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.cli.main import main
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint

from .conftest import drop_search_indexes, point_the_cli_at
from .history_repo import HistoryRepo, make_history_repo

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end


def _words(text: str) -> str:
    """Console output with rich's line wrapping undone."""
    return " ".join(text.split())


@pytest.fixture
def cli_env(
    neo4j: Neo4jClient,
    neo4j_endpoint: Neo4jEndpoint,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> Iterator[None]:
    """The CLI pointed at the test server, the search indexes dropped before and after."""
    drop_search_indexes(neo4j)
    point_the_cli_at(monkeypatch, neo4j_endpoint, tmp_path / "cache")
    yield
    drop_search_indexes(neo4j)


@pytest.fixture(scope="module")
def history_repo(tmp_path_factory: pytest.TempPathFactory) -> HistoryRepo:
    return make_history_repo(tmp_path_factory.mktemp("cli-history") / "store")


@pytest.mark.integration
@pytest.mark.usefixtures("cli_env")
def test_eval_history_json(
    history_repo: HistoryRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results"
    argv = ["eval", "history", str(history_repo.root), "--output", str(out), "--json"]
    assert main([*argv, "--ablations", "full-text,hybrid"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["questions"] == 3
    assert data["revision"] == "parent"
    assert list(data["results"]) == ["full-text", "hybrid"]
    assert data["results"]["full-text"]["acc@5"] == 1.0
    assert data["skipped"]["merge"] == 1
    names = sorted(Path(f).name for f in data["files"])
    assert names[1:] == [
        "history-store-parent.json",
        "history-store-parent.md",
        "history-store-parent.png",
    ]
    assert names[0].startswith("history-store-")
    assert names[0].endswith(".jsonl")
    assert all(Path(f).is_file() for f in data["files"])


@pytest.mark.integration
@pytest.mark.usefixtures("cli_env")
def test_eval_history_table_at_head(
    history_repo: HistoryRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "history", str(history_repo.root), "--at", "head", "--max-commits", "2"]
    assert main([*argv, "--ablations", "full-text", "--output", str(tmp_path)]) == 0
    out = _words(capsys.readouterr().out)
    assert "2 questions from the history" in out
    assert "acc_all@10" in out
    assert "full-text" in out
    assert (tmp_path / "history-store-head.md").is_file()


@pytest.mark.usefixtures("cli_env")
def test_eval_history_without_questions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = HistoryRepo(tmp_path / "empty")
    repo.commit("Add the first module of the package", {"a.py": "X = 1\n"})
    assert main(["eval", "history", str(repo.root), "--output", str(tmp_path)]) == 1
    assert "no commit" in _words(capsys.readouterr().err)


def test_eval_history_not_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "history", str(tmp_path), "--output", str(tmp_path)]) == 1
    assert "git rev-parse" in _words(capsys.readouterr().err)
