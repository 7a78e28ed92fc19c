"""Load a dataset in BEIR layout: `corpus.jsonl`, `queries.jsonl`, `qrels/test.tsv`.

Only the test split is read, and of each query only its `text`: BEIR query files may carry
gold evidence in `metadata` (SciFact does), which a retriever must never see.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_code.errors import ConfigurationError

from .documents import Document

__all__ = ["BeirDataset", "Query", "load_beir", "read_corpus", "read_qrels", "read_queries"]


@dataclass(frozen=True)
class Query:
    """A test query: its id and text, nothing else."""

    id: str
    text: str


@dataclass(frozen=True)
class BeirDataset:
    """The corpus, the test queries (those judged in `qrels/test.tsv`) and their judgements."""

    name: str
    corpus: tuple[Document, ...]
    queries: tuple[Query, ...]
    qrels: Mapping[str, Mapping[str, int]]
    """query id -> {document id: relevance grade}."""


def _json_lines(path: Path) -> Iterator[dict[str, Any]]:
    try:
        handle = path.open(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigurationError(f"BEIR file not found: {path}") from exc
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigurationError(f"{path}:{number}: not JSON: {exc.msg}") from exc
            if not isinstance(record, dict) or "_id" not in record:
                raise ConfigurationError(f"{path}:{number}: expected an object with an _id")
            yield record


def read_corpus(path: Path) -> tuple[Document, ...]:
    """Documents of a BEIR `corpus.jsonl` (`_id`, `title`, `text`), in file order."""
    return tuple(
        Document(id=str(r["_id"]), title=str(r.get("title") or ""), text=str(r.get("text") or ""))
        for r in _json_lines(path)
    )


def read_queries(path: Path, ids: set[str] | None = None) -> tuple[Query, ...]:
    """Queries of a BEIR `queries.jsonl`, keeping only `text` (and only `ids`, when given)."""
    return tuple(
        Query(id=str(r["_id"]), text=str(r.get("text") or ""))
        for r in _json_lines(path)
        if ids is None or str(r["_id"]) in ids
    )


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """`query-id  corpus-id  score` rows (tab-separated, with a header) as nested dicts."""
    try:
        handle = path.open(encoding="utf-8", newline="")
    except FileNotFoundError as exc:
        raise ConfigurationError(f"BEIR qrels not found: {path}") from exc
    qrels: dict[str, dict[str, int]] = {}
    with handle:
        rows = csv.reader(handle, delimiter="\t")
        header = next(rows, None)
        if header is None or [h.strip() for h in header[:3]] != ["query-id", "corpus-id", "score"]:
            raise ConfigurationError(f"{path}: expected the header query-id, corpus-id, score")
        for number, row in enumerate(rows, start=2):
            if not row:
                continue
            if len(row) < 3:
                raise ConfigurationError(f"{path}:{number}: expected three columns")
            try:
                grade = int(row[2])
            except ValueError as exc:
                raise ConfigurationError(
                    f"{path}:{number}: score {row[2]!r} is not an integer"
                ) from exc
            qrels.setdefault(row[0].strip(), {})[row[1].strip()] = grade
    return qrels


def load_beir(root: Path, *, name: str | None = None) -> BeirDataset:
    """The test split of the BEIR dataset in `root` (corpus, judged test queries, qrels)."""
    qrels = read_qrels(root / "qrels" / "test.tsv")
    queries = read_queries(root / "queries.jsonl", ids=set(qrels))
    missing = set(qrels) - {query.id for query in queries}
    if missing:
        raise ConfigurationError(
            f"{root}: {len(missing)} judged test queries are not in queries.jsonl"
        )
    return BeirDataset(
        name=name or root.name,
        corpus=read_corpus(root / "corpus.jsonl"),
        queries=tuple(sorted(queries, key=lambda q: (len(q.id), q.id))),
        qrels=qrels,
    )
