"""OpenAI (or any OpenAI-compatible server) embeddings, for users who have an API key.

Batches respect the API's limits (at most 2,048 inputs and 300,000 tokens per request, 8,192
tokens per input). No tokenizer is available offline (`tiktoken` downloads its files), so the
token limits are kept by bounding characters, conservatively. Rate limits (429) and transient
5xx answers are retried by the `openai` client with exponential backoff, honouring
`Retry-After`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..errors import ConfigurationError, EmbeddingError

if TYPE_CHECKING:
    import openai

__all__ = ["KNOWN_DIMENSIONS", "OpenAIEmbedder"]

KNOWN_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}
"""Native sizes; other models (e.g. on compatible servers) are probed once on first use."""

_MAX_INPUTS_PER_REQUEST = 2048


class OpenAIEmbedder:
    """Embeddings from the OpenAI API; `name` is ``"openai:<model>:<dimensions>"``.

    `dimensions` is sent to the API only when given (text-embedding-3 models shorten their
    vectors on request). `api_key` falls back to ``OPENAI_API_KEY`` and `base_url` to the
    client's own ``OPENAI_BASE_URL`` handling, both read on first use, not at construction.

        >>> embedder = OpenAIEmbedder(dimensions=512)
        >>> embedder.name
        'openai:text-embedding-3-small:512'
    """

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        dimensions: int | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 6,
        timeout: float = 60.0,
        max_batch_size: int = 512,
        max_batch_chars: int = 240_000,
        max_input_chars: int = 16_000,
        client: openai.OpenAI | None = None,
    ) -> None:
        if dimensions is not None and dimensions < 1:
            raise ConfigurationError(f"dimensions must be at least 1, got {dimensions}")
        if not 1 <= max_batch_size <= _MAX_INPUTS_PER_REQUEST:
            raise ConfigurationError(
                f"max_batch_size must be 1..{_MAX_INPUTS_PER_REQUEST}, got {max_batch_size}"
            )
        if max_input_chars < 1 or max_batch_chars < max_input_chars:
            raise ConfigurationError("need 1 <= max_input_chars <= max_batch_chars")
        if max_retries < 0:
            raise ConfigurationError(f"max_retries must be >= 0, got {max_retries}")
        self.model = model
        self.max_retries = max_retries
        self.timeout = timeout
        self.max_batch_size = max_batch_size
        self.max_batch_chars = max_batch_chars
        self.max_input_chars = max_input_chars
        self._requested_dimensions = dimensions
        self._dimensions = dimensions or KNOWN_DIMENSIONS.get(model)
        self._api_key = api_key
        self._base_url = base_url
        self._client = client
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self.model!r}, dimensions={self._requested_dimensions})"

    @property
    def name(self) -> str:
        return f"openai:{self.model}:{self.dimensions}"

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            # An unknown model: ask once, then trust the answer.
            self._dimensions = len(self._request([" "])[0])
        return self._dimensions

    # -- embedding -----------------------------------------------------------------------------
    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        # The API rejects empty strings and inputs over 8,192 tokens.
        inputs = [text[: self.max_input_chars] or " " for text in texts]
        vectors: list[list[float]] = []
        for batch in self._batches(inputs):
            vectors.extend(self._request(batch))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def _batches(self, inputs: list[str]) -> Iterator[list[str]]:
        batch: list[str] = []
        chars = 0
        for text in inputs:
            if batch and (
                len(batch) == self.max_batch_size or chars + len(text) > self.max_batch_chars
            ):
                yield batch
                batch, chars = [], 0
            batch.append(text)
            chars += len(text)
        if batch:
            yield batch

    def _request(self, batch: list[str]) -> list[list[float]]:
        import openai

        client = self._openai()
        try:
            if self._requested_dimensions is None:
                response = client.embeddings.create(model=self.model, input=batch)
            else:
                response = client.embeddings.create(
                    model=self.model, input=batch, dimensions=self._requested_dimensions
                )
        except openai.AuthenticationError as exc:
            raise ConfigurationError(
                f"{self._label()}: {client.base_url} rejected the API key (HTTP 401); "
                "check OPENAI_API_KEY"
            ) from exc
        except openai.APIStatusError as exc:
            raise EmbeddingError(
                f"{self._label()}: HTTP {exc.status_code} from {client.base_url} "
                f"(after up to {self.max_retries} retries): {exc.message}"
            ) from exc
        except openai.APIConnectionError as exc:
            raise EmbeddingError(
                f"{self._label()}: cannot reach {client.base_url}: {exc.message}"
            ) from exc
        except (openai.OpenAIError, ValueError) as exc:  # ValueError: an answer without data
            raise EmbeddingError(f"{self._label()}: {exc}") from exc
        data = sorted(response.data, key=lambda item: item.index)
        vectors = [list(item.embedding) for item in data]
        if len(vectors) != len(batch):
            raise EmbeddingError(
                f"{self._label()}: asked for {len(batch)} vectors, got {len(vectors)}"
            )
        expected = self._dimensions
        wrong = [len(v) for v in vectors if expected is not None and len(v) != expected]
        if wrong:
            raise EmbeddingError(
                f"{self._label()}: expected {expected} dimensions, the API returned {wrong[0]}"
            )
        return vectors

    def _label(self) -> str:
        return f"openai:{self.model}"

    def _openai(self) -> openai.OpenAI:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._new_client()
        return self._client

    def _new_client(self) -> openai.OpenAI:
        import openai

        api_key = self._api_key or os.environ.get("OPENAI_API_KEY")
        if not api_key:
            raise ConfigurationError(
                f"{self._label()}: no OpenAI API key; set OPENAI_API_KEY or pass api_key "
                "(or use the offline embedder: GRAPHRAG_CODE_EMBEDDER=minilm)"
            )
        return openai.OpenAI(
            api_key=api_key,
            base_url=self._base_url,
            max_retries=self.max_retries,
            timeout=self.timeout,
        )
