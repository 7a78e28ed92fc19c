"""`graphrag-code eval ...` in process: history and SciFact against the real Neo4j (hashing
embedder for code, MiniLM on a tiny BEIR set), and the wiring of `eval code`."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_code.cli.main import main
from graphrag_code.endpoint import Neo4jEndpoint
from graphrag_code.graph.client import Neo4jClient

from .conftest import drop_search_indexes
from .history_repo import HistoryRepo, make_history_repo

CODE_MODULE = "graphrag_code.eval.code_questions"


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
    """The CLI builds its Settings from the environment: point it at the test server."""
    drop_search_indexes(neo4j)
    monkeypatch.setenv("NEO4J_URI", neo4j_endpoint.uri)
    monkeypatch.setenv("NEO4J_USERNAME", neo4j_endpoint.username)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_endpoint.database)
    if neo4j_endpoint.password is not None:
        monkeypatch.setenv("NEO4J_PASSWORD", neo4j_endpoint.password.get_secret_value())
    else:
        monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    monkeypatch.setenv("GRAPHRAG_CODE_EMBEDDER", "hashing")
    monkeypatch.setenv("GRAPHRAG_CODE_CACHE_DIR", str(tmp_path / "cache"))
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


# -- eval code: the benchmark module comes from another package part -----------------------------
def test_eval_code_when_the_benchmark_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, CODE_MODULE, None)  # makes the import fail
    assert main(["eval", "code", "requests"]) == 1
    assert "not part of this installation" in _words(capsys.readouterr().err)


def test_eval_code_forwards_arguments_and_shows_tables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[Any, dict[str, Any]]] = []

    def run_code_benchmark(packages: Any, **options: Any) -> dict[str, Any]:
        calls.append((packages, options))
        return {
            "pooled": {
                "hybrid": {
                    "all": {"n": 4, "R@1": 0.25, "MRR": 0.5},
                    "callers": {"n": 2, "R@1": 0.5, "MRR": 0.75},
                }
            },
            "run_log": "code-run.jsonl",
        }

    fake = types.ModuleType(CODE_MODULE)
    fake.run_code_benchmark = run_code_benchmark  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, CODE_MODULE, fake)
    argv = ["eval", "code", "requests==2.32.3", "flask==3.0.3", "--sample", "5"]
    assert main([*argv, "--ablations", "text,hybrid", "--output", str(tmp_path)]) == 0
    packages, options = calls[-1]
    assert packages == ("requests==2.32.3", "flask==3.0.3")
    assert options.pop("progress") is not None
    assert options == {"output_dir": tmp_path, "sample": 5, "ablations": ("text", "hybrid")}
    table = capsys.readouterr().out
    assert "callers" in table
    assert "0.250" in table
    assert "code-run.jsonl" in table
    # no packages: the module's defaults, else a clear error
    assert main(["eval", "code", "--output", str(tmp_path)]) == 1
    assert "name the packages" in _words(capsys.readouterr().err)
    fake.DEFAULT_PACKAGES = ("click==8.1.7",)  # type: ignore[attr-defined]
    assert main(["eval", "code", "--json", "--output", str(tmp_path)]) == 0
    assert calls[-1][0] == ("click==8.1.7",)
    assert json.loads(capsys.readouterr().out)["pooled"]["hybrid"]["all"]["n"] == 4


# -- eval scifact on a tiny BEIR set ------------------------------------------------------------
TOPICS = {
    "d1": ("Vitamin D and bone density", "Vitamin D supplements raise bone mineral density."),
    "d2": ("Statins and cholesterol", "Statins lower LDL cholesterol in adults."),
    "d3": ("Malaria vaccines", "The RTS,S vaccine reduces clinical malaria in children."),
    "d4": ("Sleep and memory", "Deep sleep consolidates declarative memory."),
    "d5": ("Coffee and the liver", "Coffee drinking is linked to lower liver fibrosis."),
    "d6": ("Exercise and depression", "Aerobic exercise reduces symptoms of depression."),
}
QUERIES = {
    "q1": ("Vitamin D increases bone density", "d1"),
    "q2": ("Statins reduce LDL cholesterol", "d2"),
    "q3": ("Sleep helps memory consolidation", "d4"),
}


def _tiny_beir(root: Path) -> Path:
    (root / "qrels").mkdir(parents=True)
    corpus = [{"_id": i, "title": t, "text": x} for i, (t, x) in TOPICS.items()]
    (root / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in corpus) + "\n")
    queries = [{"_id": q, "text": text} for q, (text, _) in QUERIES.items()]
    (root / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries) + "\n")
    qrels = ["query-id\tcorpus-id\tscore"] + [f"{q}\t{d}\t1" for q, (_, d) in QUERIES.items()]
    (root / "qrels" / "test.tsv").write_text("\n".join(qrels) + "\n")
    return root


@pytest.mark.integration
@pytest.mark.usefixtures("cli_env")
def test_eval_scifact_quick_on_a_tiny_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _tiny_beir(tmp_path / "beir")
    out = tmp_path / "results"
    argv = ["eval", "scifact", "--data", str(data), "--quick", "--max-tokens", "256"]
    assert main([*argv, "--output", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["command"].startswith("graphrag-code eval scifact --data")
    # three queries, six documents: every leg puts the one relevant document first
    assert result["results"]["full-text flat/english"]["ndcg@10"] == 1.0
    assert result["results"]["vector only, MiniLM-L6 int8, 256 tokens"]["recall@100"] == 1.0
    assert (out / "scifact-256tokens-quick.md").is_file()
    written = json.loads((out / "scifact-256tokens-quick.json").read_text())
    assert written["results"] == result["results"]
    assert main([*argv, "--output", str(out)]) == 0
    table = capsys.readouterr().out
    assert "Published anchors" in table
    assert "nDCG@10" in table
