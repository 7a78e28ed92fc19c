"""The real SciFact pipeline, small: 10 test queries against their relevant documents plus 200
others, hashing embedder, through Neo4j, scored and recorded (benchmarks/scifact.py runs it
all)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from graphrag_code.embedding import HashingEmbedder
from graphrag_code.eval.beir import load_beir
from graphrag_code.eval.documents import (
    DocumentSchema,
    FulltextIndex,
    ensure_document_schema,
    ingest_documents,
)
from graphrag_code.eval.run import Fusion, RunConfig, RunLog, embed_queries, evaluate, retrieve
from graphrag_code.graph.client import Neo4jClient

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
    run_id = log.write_pass(config, results)
    log.write_evaluation(run_id, hybrid, with_hits=True)
    records = [json.loads(line) for line in log.path.read_text().splitlines()]
    assert [r["type"] for r in records] == ["run"] + ["query"] * 10 + ["evaluation"]
    assert records[0]["git"]["commit"] is None or len(records[0]["git"]["commit"]) == 40
    first = records[-1]["hits"][queries[0].id][0]
    assert set(first["ranks"]) <= {"fulltext", "vector"}
    assert first["ranks"]
