"""The real SciFact pipeline, small: 10 test queries against their relevant documents plus 200
others, hashing embedder, through Neo4j, scored and recorded; and
`python -m benchmarks.retrieval.scifact` (which runs it all) on a tiny BEIR set with MiniLM."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.retrieval.scifact import main
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.evaluation.runlog import RunLog
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from harness.beir import load_beir
from harness.documents import (
    DocumentSchema,
    FulltextIndex,
    ensure_document_schema,
    ingest_documents,
)
from harness.passes import (
    Fusion,
    RunConfig,
    embed_queries,
    evaluate,
    retrieve,
    write_evaluation,
    write_pass,
)

from .conftest import drop_search_indexes, point_the_cli_at

pytestmark = pytest.mark.integration

# shared/ sits beside the checkout here; CI clones elsewhere on the same machine.
_FROM_ENV = os.environ.get("GRAPHRAG_CODE_SCIFACT_DIR")
_CANDIDATES = ([Path(_FROM_ENV)] if _FROM_ENV else []) + [
    Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact",
    Path("/work/shared/data/scifact"),
]
SCIFACT = next((c for c in _CANDIDATES if (c / "corpus.jsonl").is_file()), _CANDIDATES[0])
SCHEMA = DocumentSchema(
    dimensions=256,
    vector_index="test_document_vectors",
    fulltext=(FulltextIndex("test_document_flat"),),
)


def test_scifact_subset_end_to_end(neo4j: Neo4jClient, tmp_path: Path) -> None:
    assert (SCIFACT / "corpus.jsonl").is_file(), (
        f"SciFact not found (looked in {[str(c) for c in _CANDIDATES]}); "
        "set GRAPHRAG_CODE_SCIFACT_DIR"
    )
    dataset = load_beir(SCIFACT)
    assert len(dataset.queries) == 300
    assert len(dataset.corpus) == 5183
    queries = dataset.queries[:10]
    qrels = {query.id: dataset.qrels[query.id] for query in queries}
    relevant = {doc for judged in qrels.values() for doc in judged}
    others = [doc for doc in dataset.corpus if doc.id not in relevant]
    corpus = [doc for doc in dataset.corpus if doc.id in relevant]
    corpus += random.Random(0).sample(others, 200)

    embedder = HashingEmbedder(256)
    ensure_document_schema(neo4j, SCHEMA)
    report = ingest_documents(neo4j, "scifact-smoke", corpus, embedder)
    assert report.embedded == len(corpus)

    config = RunConfig(
        corpus="scifact-smoke",
        fulltext_index="test_document_flat",
        vector_index=SCHEMA.vector_index,
        label="smoke",
    )
    results = retrieve(neo4j, queries, config, vectors=embed_queries(embedder, queries))
    assert all(r.legs.fulltext and len(r.legs.vector) == 100 for r in results)

    text = evaluate(results, qrels, Fusion(1.0, 0.0))
    vector = evaluate(results, qrels, Fusion(0.0, 1.0))
    hybrid = evaluate(results, qrels, Fusion(1.0, 1.0))
    assert text.summary.overall.queries == 10
    # Against ~210 documents that include every relevant one, BM25 finds nearly all of them.
    assert text.summary.overall.means["ndcg@10"] > 0.5
    assert text.summary.overall.means["recall@100"] >= 0.8
    assert vector.summary.overall.means["recall@100"] > 0.5
    assert hybrid.summary.overall.means["recall@100"] >= text.summary.overall.means["recall@100"]

    log = RunLog(tmp_path / "smoke.jsonl", context={"dataset": "scifact-smoke"})
    run_id = write_pass(log, config, results)
    write_evaluation(log, run_id, hybrid, with_hits=True)
    records = [json.loads(line) for line in log.path.read_text().splitlines()]
    assert [r["type"] for r in records] == ["run"] + ["query"] * 10 + ["evaluation"]
    assert records[0]["git"]["commit"] is None or len(records[0]["git"]["commit"]) == 40
    first = records[-1]["hits"][queries[0].id][0]
    assert set(first["ranks"]) <= {"fulltext", "vector"}
    assert first["ranks"]


# -- the benchmark script on a tiny BEIR set -----------------------------------------------------
@pytest.fixture
def server_env(
    neo4j: Neo4jClient,
    neo4j_endpoint: Neo4jEndpoint,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> Iterator[None]:
    """The script connects with `load_settings()`: point the environment at the test server."""
    drop_search_indexes(neo4j)
    point_the_cli_at(monkeypatch, neo4j_endpoint, tmp_path / "cache", embedder=None)
    yield
    drop_search_indexes(neo4j)


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


@pytest.mark.usefixtures("server_env")
def test_scifact_script_quick_on_a_tiny_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _tiny_beir(tmp_path / "beir")
    out = tmp_path / "results"
    argv = ["--data", str(data), "--quick", "--max-tokens", "256", "--out", str(out)]
    assert main([*argv, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["command"].startswith(".venv/bin/python -m benchmarks.retrieval.scifact --data")
    # three queries, six documents: every leg puts the one relevant document first
    assert result["results"]["full-text flat/english"]["ndcg@10"] == 1.0
    assert result["results"]["vector only, MiniLM-L6 int8, 256 tokens"]["recall@100"] == 1.0
    assert (out / "scifact-256tokens-quick.md").is_file()
    written = json.loads((out / "scifact-256tokens-quick.json").read_text())
    assert written["results"] == result["results"]
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "Published anchors" in table
    assert "nDCG@10" in table
