"""Use any LlamaIndex `BaseEmbedding` (HuggingFace, Ollama, Bedrock, ...) as an `Embedder`.

LlamaIndex is imported only for type checking: wrapping an embedding someone already built
needs nothing from it at run time, and importing it costs more than a second.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import ConfigurationError, EmbeddingError

if TYPE_CHECKING:
    from llama_index.core.base.embeddings.base import BaseEmbedding

__all__ = ["LlamaIndexEmbedder"]


class LlamaIndexEmbedder:
    """Adapter; `name` is ``"llamaindex:<class>:<model_name>"``.

    Without `dimensions`, the first access to `dimensions` embeds one short text to find out.
    """

    def __init__(self, embedding: BaseEmbedding, dimensions: int | None = None) -> None:
        if dimensions is not None and dimensions < 1:
            raise ConfigurationError(f"dimensions must be at least 1, got {dimensions}")
        self.embedding = embedding
        self._dimensions = dimensions
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LlamaIndexEmbedder({self.name!r}, dimensions={self._dimensions})"

    @property
    def name(self) -> str:
        return f"llamaindex:{type(self.embedding).__name__}:{self.embedding.model_name}"

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            with self._lock:
                if self._dimensions is None:
                    probe = self.embedding.get_text_embedding("dimension probe")
                    if not probe:
                        raise EmbeddingError(f"{self.name}: returned an empty vector")
                    self._dimensions = len(probe)
        return self._dimensions

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self.embedding.get_text_embedding_batch(list(texts))
        if len(vectors) != len(texts):
            raise EmbeddingError(f"{self.name}: {len(texts)} texts gave {len(vectors)} vectors")
        return [self._checked(vector) for vector in vectors]

    def embed_query(self, text: str) -> list[float]:
        return self._checked(self.embedding.get_query_embedding(text))

    def _checked(self, vector: Sequence[float]) -> list[float]:
        if len(vector) != self.dimensions:
            raise EmbeddingError(
                f"{self.name}: expected {self.dimensions} dimensions, got {len(vector)}"
            )
        return [float(x) for x in vector]
