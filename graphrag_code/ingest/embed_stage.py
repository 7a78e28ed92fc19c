"""The embedding stage of indexing: a vector for every :Code node whose text changed.

Embedding is by far the slowest stage (MiniLM on two cores reads 15-35 texts a second, against
thousands of nodes a second for everything else), so this stage embeds as little as it can and
keeps the model busy:

* Only nodes whose `embedded_hash` differs from their `content_hash`, or whose vector came from
  another model, are embedded. Each vector is stored with the hash of the text it was computed
  from, so a rerun after an interruption resumes where the last one stopped.
* A vector the same model already computed for the same `content_hash`, on any node of any
  repository, is reused instead of recomputed: an unchanged symbol is never embedded twice.
* Nodes are read in chunks in id order (keyset pagination) and each chunk is written back in one
  write transaction, so memory stays bounded and an interruption loses at most one chunk.
* One background thread reads the next chunk (building its ghost texts) and writes the previous
  one while the model runs on the current one. onnxruntime and the Neo4j socket release the GIL,
  so Neo4j I/O and inference overlap on the two cores. `benchmarks/speed/embedding_stage.py`
  measured 2-4 % of the stage's time outside the model, and 0.81-0.97 of the model's own texts/s on
  requests and flask (two cores shared with other work, so ±20 % noise).

Call `ensure_schema` with the embedder's name and dimension count first: it refuses to mix the
vectors of two models in one index.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..embedding import Embedder, ghost_text
from ..errors import ConfigurationError, EmbeddingError
from ..graph.client import Neo4jClient
from ..graph.vectors import VectorStore
from ..progress import ProgressReporter

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_CHUNK_SIZE",
    "EmbedReport",
    "count_pending",
    "embed_pending",
    "forget_embeddings",
    "node_ghost_text",
]

DEFAULT_CHUNK_SIZE = 256
"""Nodes per read transaction and per write transaction: the most an interruption can lose."""
DEFAULT_BATCH_SIZE = 64
"""Texts per `embed_documents` call: how often progress moves and cancellation is checked."""

_FORGET_BATCH = 5000


@dataclass
class EmbedReport:
    """What one embedding run did. `embedded` counts texts the model computed; `cache_hits`
    counts nodes served a vector computed earlier for the same content."""

    repo: str | None
    model: str
    pending: int = 0
    embedded: int = 0
    cache_hits: int = 0
    written: int = 0
    stopped_early: bool = False
    seconds: float = 0.0
    model_seconds: float = 0.0

    @property
    def texts_per_second(self) -> float:
        """Texts embedded per second of the whole stage (reads, inference and writes)."""
        return self.embedded / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "repo": self.repo,
            "model": self.model,
            "pending": self.pending,
            "embedded": self.embedded,
            "cache_hits": self.cache_hits,
            "written": self.written,
            "stopped_early": self.stopped_early,
            "seconds": round(self.seconds, 3),
            "model_seconds": round(self.model_seconds, 3),
            "texts_per_second": round(self.texts_per_second, 2),
        }


def node_ghost_text(node: Mapping[str, Any]) -> str:
    """The default-recipe ghost text of a stored :Code node (its properties as a mapping).

    The node's `kind` is a label ("Method"); ghost texts spell it in lower case ("method").
    """
    return ghost_text(
        path=node.get("path") or "",
        qualified_name=node.get("qualified_name") or "",
        kind=str(node.get("kind") or "").lower(),
        signature=node.get("signature"),
        docstring=node.get("docstring"),
        code=node.get("code"),
    )


@dataclass(frozen=True)
class _Node:
    id: str
    content_hash: str
    text: str | None  # the ghost text; None when `cached` holds the vector
    cached: list[float] | None


@dataclass(frozen=True)
class _Chunk:
    nodes: list[_Node]
    last_id: str


class _NoProgress:
    def stage(self, name: str, total: int | None = None) -> None:
        return None

    def advance(self, amount: int = 1) -> None:
        return None


def count_pending(client: Neo4jClient, repo: str | None, embedder: Embedder) -> int:
    """How many :Code nodes of `repo` (every repository when None) lack an up-to-date vector
    from `embedder`: what the next `embed_pending` would do."""
    return VectorStore(client, repo, embedder.name).count_pending()


def forget_embeddings(client: Neo4jClient, repo: str | None = None) -> int:
    """Mark the vectors of `repo` (all repositories when None) as out of date.

    The next `embed_pending` recomputes them (after a change to how ghost texts are built,
    say) while the old vectors stay searchable. Returns how many nodes were marked.
    """
    return VectorStore(client, repo, model="").forget(batch=_FORGET_BATCH)


def embed_pending(
    client: Neo4jClient,
    repo: str | None,
    embedder: Embedder,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: ProgressReporter | None = None,
    cancel: threading.Event | None = None,
    limit: int | None = None,
    stage: str = "embedding",
) -> EmbedReport:
    """Store a vector from `embedder` on every :Code node of `repo` (every repository when
    None) that lacks an up-to-date one.

    `limit` caps how many nodes get a vector in this run; setting `cancel` stops the run after
    the current embedding batch, keeping (writing) what was computed. Either leaves
    `stopped_early` set. Progress is reported as the stage `stage`.
    """
    if chunk_size < 1 or batch_size < 1:
        raise ConfigurationError(
            f"chunk_size and batch_size must be at least 1, got {chunk_size} and {batch_size}"
        )
    if limit is not None and limit < 0:
        raise ConfigurationError(f"limit must not be negative, got {limit}")
    started = time.perf_counter()
    progress = progress or _NoProgress()
    store = VectorStore(client, repo, embedder.name)
    pending = store.count_pending()
    report = EmbedReport(repo=repo, model=embedder.name, pending=pending)
    todo = pending if limit is None else min(pending, limit)
    progress.stage(stage, todo)
    if todo:
        run = _Run(store, embedder, chunk_size, batch_size, progress, cancel, report)
        run.execute(todo)
    report.stopped_early = report.stopped_early or todo < pending
    report.seconds = time.perf_counter() - started
    return report


class _Run:
    """One pass over the pending nodes: the model in the calling thread, Neo4j in another."""

    def __init__(
        self,
        store: VectorStore,
        embedder: Embedder,
        chunk_size: int,
        batch_size: int,
        progress: ProgressReporter,
        cancel: threading.Event | None,
        report: EmbedReport,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.dimensions = embedder.dimensions
        self.chunk_size = chunk_size
        self.batch_size = batch_size
        self.progress = progress
        self.cancel = cancel or threading.Event()
        self.report = report
        # Vectors of the previous chunk: its write may not have landed when the next chunk
        # was read, so its content hashes cannot be found in the database yet.
        self.previous: dict[str, list[float]] = {}

    def execute(self, todo: int) -> None:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphrag-code-embed") as io:
            # The single worker runs tasks in order: write k-1, then read k+1 (while the model
            # embeds chunk k). So read k+1 sees every chunk but k in the database.
            asked = min(self.chunk_size, todo)
            reading: Future[_Chunk] | None = io.submit(self._read, self.store.after, asked)
            writing: Future[int] | None = None
            try:
                while reading is not None:
                    chunk = reading.result()
                    todo -= len(chunk.nodes)
                    reading = None
                    # A short chunk was the last one.
                    if len(chunk.nodes) == asked and todo > 0 and not self.cancel.is_set():
                        asked = min(self.chunk_size, todo)
                        reading = io.submit(self._read, chunk.last_id, asked)
                    rows, complete = self._vectors(chunk)
                    if writing is not None:
                        self.report.written += writing.result()
                    writing = io.submit(self.store.write, rows) if rows else None
                    if not complete:
                        self.report.stopped_early = True
                        break
                if writing is not None:
                    self.report.written += writing.result()
                    writing = None
            finally:
                # On an error or Ctrl-C the queued read is pointless, but the write of the
                # previous chunk holds finished work: the executor's exit waits for it.
                if reading is not None:
                    reading.cancel()

    # -- Neo4j, in the background thread -------------------------------------------------------
    def _read(self, after: str, limit: int) -> _Chunk:
        rows = self.store.read_pending(after, limit)
        nodes = [
            _Node(
                id=row["id"],
                content_hash=row["content_hash"],
                text=None if row["cached"] is not None else node_ghost_text(row),
                cached=list(row["cached"]) if row["cached"] is not None else None,
            )
            for row in rows
        ]
        return _Chunk(nodes, nodes[-1].id if nodes else after)

    # -- the model, in the calling thread ------------------------------------------------------
    def _vectors(self, chunk: _Chunk) -> tuple[list[dict[str, Any]], bool]:
        """Rows (id, content_hash, embedding) for the chunk; False when cancelled midway."""
        rows: list[dict[str, Any]] = []
        waiting: dict[str, list[_Node]] = {}  # content hash -> nodes that need its vector
        texts: dict[str, str] = {}
        for node in chunk.nodes:
            vector = (
                node.cached if node.cached is not None else self.previous.get(node.content_hash)
            )
            if vector is not None:
                rows.append(_row(node, vector))
            else:
                waiting.setdefault(node.content_hash, []).append(node)
                texts[node.content_hash] = node.text or ""
        self.report.cache_hits += len(rows)
        self.progress.advance(len(rows))
        computed: dict[str, list[float]] = {}
        # Similar lengths in one batch keep padding short (MiniLM pads to the longest text).
        order = sorted(waiting, key=lambda content_hash: len(texts[content_hash]))
        complete = True
        for start in range(0, len(order), self.batch_size):
            if self.cancel.is_set():
                complete = False
                break
            hashes = order[start : start + self.batch_size]
            vectors = self._embed([texts[content_hash] for content_hash in hashes])
            served = 0
            for content_hash, vector in zip(hashes, vectors, strict=True):
                computed[content_hash] = vector
                rows.extend(_row(node, vector) for node in waiting[content_hash])
                served += len(waiting[content_hash])
            self.report.embedded += len(hashes)
            self.report.cache_hits += served - len(hashes)  # same text twice in one chunk
            self.progress.advance(served)
        self.previous = computed
        return rows, complete

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        started = time.perf_counter()
        vectors = self.embedder.embed_documents(texts)
        self.report.model_seconds += time.perf_counter() - started
        if len(vectors) != len(texts):
            raise EmbeddingError(
                f"{self.embedder.name}: {len(texts)} texts gave {len(vectors)} vectors"
            )
        for vector in vectors:
            # A vector of the wrong length is silently left out of the Neo4j index.
            if len(vector) != self.dimensions:
                raise EmbeddingError(
                    f"{self.embedder.name}: expected {self.dimensions} dimensions, "
                    f"got {len(vector)}"
                )
        return vectors


def _row(node: _Node, vector: list[float]) -> dict[str, Any]:
    return {"id": node.id, "content_hash": node.content_hash, "embedding": vector}
