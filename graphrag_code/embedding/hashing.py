"""A deterministic feature-hashing embedder: no model, no network, same vectors everywhere.

For tests and demos (as httpx ships `MockTransport`): words and identifier sub-words are
hashed with blake2b — never `hash()`, which is salted per process — into signed buckets, so
texts that share vocabulary point the same way. It knows nothing about meaning.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator, Sequence

from ..errors import ConfigurationError
from ..text import split_identifier

__all__ = ["HashingEmbedder", "word_features"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
_STOPWORDS = frozenset(
    {"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "if", "in", "is", "it"}
    | {"of", "on", "or", "self", "the", "this", "to", "with"}
)


def word_features(text: str) -> Iterator[str]:
    """Each word lowercased, then its sub-words when it is a compound identifier."""
    for word in _WORD.findall(text):
        whole = word.lower().strip("_")
        if not whole or whole in _STOPWORDS:
            continue
        yield whole
        parts = split_identifier(word)
        if len(parts) > 1:
            yield from (part for part in parts if part not in _STOPWORDS)


class HashingEmbedder:
    """Signed feature hashing of words into `dimensions` buckets, L2-normalised.

    `name` is ``"hashing-blake2b-<dimensions>"``; text without any word maps to one fixed
    unit vector (Neo4j's cosine index rejects zero vectors).
    """

    def __init__(self, dimensions: int = 256) -> None:
        if dimensions < 2:
            raise ConfigurationError(f"dimensions must be at least 2, got {dimensions}")
        self._dimensions = dimensions

    @property
    def name(self) -> str:
        return f"hashing-blake2b-{self._dimensions}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def __repr__(self) -> str:
        return f"HashingEmbedder(dimensions={self._dimensions})"

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_query(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        vector = [0.0] * self._dimensions
        features = list(word_features(text)) or ["\x00empty"]
        for feature in features:
            digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            vector[value % self._dimensions] += 1.0 if value >> 63 else -1.0
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0.0:  # every feature cancelled out: fall back to the empty-text vector
            return self.embed_query("")
        return [x / norm for x in vector]
