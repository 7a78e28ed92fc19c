"""Plain text documents (id, title, text) in Neo4j, searchable by vector and full text.

Documents get their own label, `:Document`, with their own vector index and full-text index(es),
so a benchmark corpus never mixes with the `:Code` graph. A `corpus` property lets several
corpora share the label: (corpus, id) is unique. The `:Document` label belongs to this module:
`ensure_document_schema` drops a `:Document` full-text index that is in the way of the wanted
one (full-text indexes are derived data and rebuild in seconds).

Embedding is by far the slowest step (SciFact: 5,183 abstracts, minutes with MiniLM on two
cores), so vectors are cached in the graph: a document is embedded again only when its text
or the embedding key (model name, plus anything else that changes the vectors) changed.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from graphrag_code.embedding.base import Embedder
from graphrag_code.errors import (
    ConfigurationError,
    EmbeddingError,
    EmbeddingMismatchError,
    SchemaError,
)
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import wait_for_indexes
from graphrag_code.progress import ProgressReporter
from graphrag_code.text import split_statements

from .queries import load_query

__all__ = [
    "ANALYZERS",
    "Document",
    "DocumentSchema",
    "FulltextIndex",
    "FulltextLayout",
    "IngestReport",
    "count_documents",
    "delete_corpus",
    "ensure_document_schema",
    "ingest_documents",
]

ANALYZERS = ("english", "standard", "standard-no-stop-words", "classic", "simple", "stop")
"""Lucene analyzers worth comparing on English prose (`db.index.fulltext.listAvailableAnalyzers`
lists ~45, most of them for other languages)."""

_CLEAR_BATCH = 5000


@dataclass(frozen=True)
class Document:
    """One text document; `content` is what the flat index and the embedder read."""

    id: str
    title: str
    text: str

    @property
    def content(self) -> str:
        # BEIR and Pyserini "flat" indexing: title + " " + text.
        return f"{self.title} {self.text}".strip()


class FulltextLayout(str, Enum):
    """Which properties a full-text index covers."""

    FLAT = "flat"
    """One Lucene field, `content` = title + " " + text (Pyserini bm25-flat)."""
    MULTIFIELD = "multifield"
    """`title` and `text` as separate fields, scored separately (Pyserini bm25-multifield)."""

    @property
    def properties(self) -> tuple[str, ...]:
        return ("content",) if self is FulltextLayout.FLAT else ("title", "text")


def _check_name(name: str) -> str:
    # Index names travel as parameters; keep them plain so people can type them in Browser.
    if not name or not name.replace("_", "").isalnum():
        raise ConfigurationError(f"index name must be letters, digits and '_': {name!r}")
    return name


@dataclass(frozen=True)
class FulltextIndex:
    """A full-text index on `:Document`: its name, the fields it covers and its analyzer."""

    name: str
    layout: FulltextLayout = FulltextLayout.FLAT
    analyzer: str = "english"

    def __post_init__(self) -> None:
        _check_name(self.name)
        if not self.analyzer or not self.analyzer.replace("-", "").replace("_", "").isalnum():
            raise ConfigurationError(f"invalid analyzer name {self.analyzer!r}")


@dataclass(frozen=True)
class DocumentSchema:
    """The `:Document` indexes. Neo4j allows one full-text index per label and property set,
    so at most one index per layout."""

    dimensions: int
    vector_index: str = "document_embedding"
    fulltext: tuple[FulltextIndex, ...] = (FulltextIndex("document_fulltext"),)
    quantization: bool = True
    """Neo4j 5.26's default; quantised HNSW vectors trade a little recall for memory."""

    def __post_init__(self) -> None:
        _check_name(self.vector_index)
        if self.dimensions < 1:
            raise ConfigurationError(f"dimensions must be at least 1, got {self.dimensions}")
        layouts = [index.layout for index in self.fulltext]
        if len(set(layouts)) != len(layouts):
            raise ConfigurationError("at most one full-text index per layout (property set)")
        names = [self.vector_index, *(index.name for index in self.fulltext)]
        if len(set(names)) != len(names):
            raise ConfigurationError(f"index names must differ: {names}")

    def fulltext_index(self, layout: FulltextLayout) -> FulltextIndex:
        """The index of `layout`; `ConfigurationError` when the schema has none."""
        for index in self.fulltext:
            if index.layout is layout:
                return index
        raise ConfigurationError(f"the document schema has no {layout.value} full-text index")


def ensure_document_schema(
    client: Neo4jClient, schema: DocumentSchema, *, reembed: bool = False, timeout: float = 300.0
) -> None:
    """Create the constraint and indexes that are missing; rebuild what differs; wait ONLINE.

    A vector index of another dimension count is rebuilt only when no vectors are stored or
    `reembed` is set (the vectors are removed, and the next ingest embeds again); otherwise
    `EmbeddingMismatchError`.
    """
    existing = {row["name"]: row for row in client.read(load_query("documents/search_indexes"))}
    _reconcile_vector(client, schema, existing, reembed=reembed)
    parameters = {
        "vector_index": schema.vector_index,
        "dimensions": schema.dimensions,
        "quantization": schema.quantization,
    }
    for statement in split_statements(load_query("documents/schema")):
        client.write(statement, parameters)
    for index in schema.fulltext:
        _reconcile_fulltext(client, index, existing)
    names = {row["name"] for row in client.read(load_query("documents/search_indexes"))}
    missing = [
        name
        for name in (schema.vector_index, *(i.name for i in schema.fulltext))
        if name not in names
    ]
    if missing:
        # CREATE ... IF NOT EXISTS is silent when an equivalent index holds the place.
        raise SchemaError(f":Document index(es) could not be created: {', '.join(missing)}")
    wait_for_indexes(client, timeout=timeout)


def _reconcile_vector(
    client: Neo4jClient,
    schema: DocumentSchema,
    existing: dict[str, dict[str, Any]],
    *,
    reembed: bool,
) -> None:
    """Drop a vector index that differs from the wanted one (or holds :Document(embedding)
    under another name, which would make CREATE ... IF NOT EXISTS a silent no-op)."""
    for name, row in existing.items():
        if row["type"] != "VECTOR":
            continue
        config = row["config"] or {}
        dimensions = int(config.get("vector.dimensions", schema.dimensions))
        quantization = bool(config.get("vector.quantization.enabled", schema.quantization))
        same = dimensions == schema.dimensions and quantization == schema.quantization
        if same and name == schema.vector_index:
            continue
        if dimensions != schema.dimensions:
            embedded = int(client.read(load_query("documents/count_embeddings"))[0]["embedded"])
            if embedded and not reembed:
                raise EmbeddingMismatchError(
                    index=name,
                    stored=f"{dimensions} dimensions",
                    configured=f"{schema.dimensions} dimensions",
                )
            clear = load_query("documents/clear_embeddings")
            while int(client.write(clear, {"limit": _CLEAR_BATCH})[0]["cleared"]):
                pass
        # The vectors themselves are node properties: a rebuilt index re-reads them.
        client.write(load_query("documents/drop_index"), {"name": name})


def _reconcile_fulltext(
    client: Neo4jClient, index: FulltextIndex, existing: dict[str, dict[str, Any]]
) -> None:
    wanted = list(index.layout.properties)
    for name, row in existing.items():
        if row["type"] != "FULLTEXT":
            continue
        same_fields = sorted(row["properties"]) == sorted(wanted)
        if name == index.name:
            analyzer = (row["config"] or {}).get("fulltext.analyzer")
            if row["properties"] == wanted and analyzer == index.analyzer:
                continue
        elif not same_fields:
            continue
        # Same name but another analyzer/fields, or another name on the same fields (which
        # would make CREATE ... IF NOT EXISTS a silent no-op): rebuild.
        client.write(load_query("documents/drop_index"), {"name": name})
    client.write(
        load_query(f"documents/fulltext_{index.layout.value}"),
        {"name": index.name, "analyzer": index.analyzer},
    )


@dataclass(frozen=True)
class IngestReport:
    """What one `ingest_documents` call did."""

    corpus: str
    documents: int
    written: int
    """New or changed documents (the rest were already stored as given)."""
    embedded: int
    reused: int
    """Documents whose stored vector was kept (same text, same embedding key)."""
    seconds: float
    embed_seconds: float = 0.0

    @property
    def texts_per_second(self) -> float:
        return self.embedded / self.embed_seconds if self.embed_seconds else 0.0


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _batches(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def ingest_documents(
    client: Neo4jClient,
    corpus: str,
    documents: Sequence[Document],
    embedder: Embedder | None,
    *,
    embedding_key: str | None = None,
    write_batch: int = 500,
    embed_batch: int = 64,
    progress: ProgressReporter | None = None,
) -> IngestReport:
    """Upsert `documents` into `corpus` and embed those without an up-to-date vector.

    `embedding_key` (default: the embedder's name) is stored next to each vector; pass one
    that also names what else changes the vectors (e.g. ``"minilm-l6-v2-int8@512"`` for
    another truncation). Vectors are written after every `embed_batch` texts, so an
    interrupted run resumes where it stopped. Texts go to the embedder longest first, which
    keeps padding low and shows the slow part of the progress first. `progress` gets one
    stage, ``embed (<key>)``, advanced by each batch.
    """
    if not corpus:
        raise ConfigurationError("corpus must be a non-empty string")
    started = time.perf_counter()
    ids = [document.id for document in documents]
    if len(set(ids)) != len(ids):
        raise ConfigurationError(f"corpus {corpus!r}: document ids must be unique")
    stored = {
        row["id"]: row for row in client.read(load_query("documents/state"), {"corpus": corpus})
    }
    rows = []
    for document in documents:
        content = document.content
        digest = _hash(content)
        row = stored.get(document.id)
        if row is None or row["content_hash"] != digest:
            rows.append(
                {
                    "id": document.id,
                    "title": document.title,
                    "text": document.text,
                    "content": content,
                    "content_hash": digest,
                }
            )
    client.write_batches(
        load_query("documents/write"), rows, batch_size=write_batch, extra={"corpus": corpus}
    )
    embedded, embed_seconds = 0, 0.0
    reused = 0
    if embedder is not None:
        _check_dimensions(client, embedder)
        key = embedding_key or embedder.name
        todo: list[Document] = []
        for document in documents:
            row = stored.get(document.id)
            fresh = (
                row is not None
                and row["embedding_model"] == key
                and row["embedded_hash"] == _hash(document.content)
            )
            if fresh:
                reused += 1
            else:
                todo.append(document)
        embedded, embed_seconds = _embed(
            client, corpus, todo, embedder, key=key, batch=embed_batch, progress=progress
        )
    return IngestReport(
        corpus=corpus,
        documents=len(documents),
        written=len(rows),
        embedded=embedded,
        reused=reused,
        seconds=time.perf_counter() - started,
        embed_seconds=embed_seconds,
    )


def _check_dimensions(client: Neo4jClient, embedder: Embedder) -> None:
    """Neo4j silently leaves out of a vector index every vector of another length."""
    for row in client.read(load_query("documents/search_indexes")):
        dimensions = (row["config"] or {}).get("vector.dimensions")
        if row["type"] == "VECTOR" and dimensions not in (None, embedder.dimensions):
            raise EmbeddingMismatchError(
                index=row["name"],
                stored=f"{dimensions} dimensions",
                configured=f"{embedder.name} with {embedder.dimensions} dimensions",
            )


def _embed(
    client: Neo4jClient,
    corpus: str,
    documents: Sequence[Document],
    embedder: Embedder,
    *,
    key: str,
    batch: int,
    progress: ProgressReporter | None,
) -> tuple[int, float]:
    if batch < 1:
        raise ConfigurationError(f"embed_batch must be at least 1, got {batch}")
    ordered = sorted(documents, key=lambda document: -len(document.content))
    query = load_query("documents/write_embeddings")
    done, seconds = 0, 0.0
    if progress is not None:
        progress.stage(f"embed ({key})", len(ordered))
    for chunk in _batches(ordered, batch):
        texts = [document.content for document in chunk]
        start = time.perf_counter()
        vectors = embedder.embed_documents(texts)
        seconds += time.perf_counter() - start
        if len(vectors) != len(texts) or any(len(v) != embedder.dimensions for v in vectors):
            raise EmbeddingError(f"{embedder.name}: wrong number or size of vectors")
        rows = [
            {"id": document.id, "embedding": vector, "hash": _hash(document.content)}
            for document, vector in zip(chunk, vectors, strict=True)
        ]
        client.write(query, {"corpus": corpus, "model": key, "rows": rows})
        done += len(chunk)
        if progress is not None:
            progress.advance(len(chunk))
    return done, seconds


def count_documents(client: Neo4jClient, corpus: str) -> tuple[int, int]:
    """(documents, documents with a vector) stored for `corpus`."""
    row = client.read(load_query("documents/count"), {"corpus": corpus})[0]
    return int(row["documents"]), int(row["embedded"])


def delete_corpus(client: Neo4jClient, corpus: str, *, batch: int = 5000) -> int:
    """Delete every document of `corpus`, in batches; returns how many."""
    query = load_query("documents/delete_corpus")
    total = 0
    while deleted := int(client.write(query, {"corpus": corpus, "limit": batch})[0]["deleted"]):
        total += deleted
    return total
