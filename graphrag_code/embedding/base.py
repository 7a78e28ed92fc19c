"""The `Embedder` protocol every vector source implements (MiniLM, OpenAI, LlamaIndex, hashing)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

__all__ = ["Embedder", "WrappedEmbedder"]


@runtime_checkable
class Embedder(Protocol):
    """Turns text into vectors that the Neo4j vector index compares by cosine.

    `name` is recorded next to the vector index (`SchemaConfig.model`), so it must change
    whenever the vectors would: another model, another dimension count. Constructors do no
    I/O; models and clients load on first use.

    Note: `isinstance(x, Embedder)` reads `name` and `dimensions` on Python < 3.12, which
    makes adapters that probe their dimension count do so then.
    """

    @property
    def name(self) -> str:
        """Stable identity of the vector space, e.g. ``"minilm-l6-v2-int8"``."""
        ...

    @property
    def dimensions(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in the order given."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query (same space as the documents)."""
        ...


class WrappedEmbedder:
    """An `Embedder` that delegates everything to `inner`: subclass it and override only what
    the wrapper changes (caching or precomputing query vectors, counting calls)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimensions(self) -> int:
        return self.inner.dimensions

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)
