"""The embedding stage against the real Neo4j: every node gets a vector, nothing is embedded
twice (reruns, changed files, identical code in another repository), interrupted runs resume,
models never mix, `index --embed later` + `embed` from the CLI, answers while the stage still runs,
and real MiniLM retrieval."""

from __future__ import annotations

import json
import math
import shutil
import textwrap
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from graphrag_code import CodeGraph, api
from graphrag_code.cli.main import main as cli_main
from graphrag_code.embedding import Embedder, HashingEmbedder, MiniLMEmbedder, WrappedEmbedder
from graphrag_code.errors import EmbeddingError, EmbeddingMismatchError, IngestError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import ensure_schema
from graphrag_code.ingest.embed_stage import embed_pending, node_ghost_text
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes

pytestmark = pytest.mark.integration

SHOP = Path(__file__).parent / "fixtures" / "shop"
TINY = {
    "src/tiny/__init__.py": '"""Tiny: dates and mail, for embedding tests."""\n',
    "src/tiny/dates.py": '''
        """Parsing and formatting of calendar dates."""

        import datetime


        def parse_date(text: str) -> datetime.date:
            """Parse an ISO 8601 date such as 2024-05-01."""
            year, month, day = text.split("-")
            return datetime.date(int(year), int(month), int(day))


        def format_date(value: datetime.date) -> str:
            """Format a date the way humans in Europe write it."""
            return value.strftime("%d.%m.%Y")


        class Calendar:
            """A list of dated events."""

            def __init__(self) -> None:
                self.events: list[tuple[datetime.date, str]] = []

            def add_event(self, text: str, title: str) -> None:
                """Add one event on the date given as text."""
                self.events.append((parse_date(text), title))
        ''',
    "src/tiny/mail.py": '''
        """Outgoing mail."""

        import smtplib


        def send_mail(host: str, sender: str, to: str, body: str) -> None:
            """Send a plain-text email through an SMTP server."""
            with smtplib.SMTP(host) as server:
                server.sendmail(sender, [to], body)
        ''',
}


class CountingEmbedder(WrappedEmbedder):
    """Wraps an embedder, records every text it is asked to embed; optionally fails (like a
    crash or Ctrl-C) once more than `fail_after` texts were requested."""

    def __init__(self, inner: Embedder, *, fail_after: int | None = None) -> None:
        super().__init__(inner)
        self.fail_after = fail_after
        self.texts: list[str] = []
        self.calls = 0

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if self.fail_after is not None and len(self.texts) + len(texts) > self.fail_after:
            raise EmbeddingError("simulated failure in the middle of a run")
        self.calls += 1
        self.texts.extend(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def write_tiny(root: Path) -> Path:
    for name, text in TINY.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return root


@pytest.fixture
def cfg(settings: Settings, tmp_path: Path) -> Settings:
    """Default index names, the hashing embedder, incremental state under tmp_path."""
    return settings.model_copy(update={"cache_dir": tmp_path / "cache", "embedder": "hashing"})


@pytest.fixture
def graph(neo4j: Neo4jClient, cfg: Settings) -> Iterator[Neo4jClient]:
    """The default-named indexes, built for the 256-dim hashing embedder."""
    drop_search_indexes(neo4j)
    embedder = HashingEmbedder()
    ensure_schema(
        neo4j, api.schema_config(cfg, dimensions=embedder.dimensions, model=embedder.name)
    )
    yield neo4j
    drop_search_indexes(neo4j)


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return write_tiny(tmp_path / "tiny")


def nodes(client: Neo4jClient, repo: str) -> dict[str, dict[str, Any]]:
    rows = client.read(
        "MATCH (n:Code {repo: $repo}) RETURN n.id AS id, properties(n) AS props", {"repo": repo}
    )
    return {row["id"]: row["props"] for row in rows}


def missing_vectors(client: Neo4jClient, repo: str) -> list[str]:
    return [
        node_id
        for node_id, props in nodes(client, repo).items()
        if props.get("embedding") is None or props.get("embedded_hash") != props["content_hash"]
    ]


def test_every_node_gets_the_vector_of_its_ghost_text(
    graph: Neo4jClient, cfg: Settings, tiny: Path
) -> None:
    embedder = CountingEmbedder(HashingEmbedder())
    report = api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=embedder)
    stored = nodes(graph, "tiny")
    assert len(stored) == 9  # 3 modules, 3 functions, 1 class, 2 methods
    assert report.embedded == len(stored) == len(embedder.texts)
    assert report.embedding_cache_hits == 0
    assert report.seconds["embed"] > 0
    hashing = HashingEmbedder()
    for props in stored.values():
        assert props["embedded_hash"] == props["content_hash"]
        assert props["embedded_model"] == "hashing-blake2b-256"
        expected = hashing.embed_query(node_ghost_text(props))
        assert props["embedding"] == pytest.approx(expected, abs=1e-6)  # float32 in Neo4j
    # The vector index serves what was stored: a node's own ghost text finds it first.
    target = stored["tiny:tiny.mail.send_mail"]
    hits = graph.read(
        "CALL db.index.vector.queryNodes('code_embedding', 3, $vector) YIELD node, score "
        "RETURN node.id AS id, score",
        {"vector": hashing.embed_query(node_ghost_text(target))},
    )
    assert hits[0]["id"] == "tiny:tiny.mail.send_mail"
    assert hits[0]["score"] > 0.99  # the index quantizes vectors: not exactly 1


def test_node_ghost_text_uses_the_lowercase_kind() -> None:
    text = node_ghost_text(
        {
            "path": "src/tiny/mail.py",
            "qualified_name": "tiny.mail.send_mail",
            "kind": "Function",
            "signature": "def send_mail(host)",
            "docstring": "Send a plain-text email.",
            "code": "def send_mail(host):\n    'Send a plain-text email.'\n    connect(host)",
        }
    )
    assert text.splitlines() == [
        "src/tiny/mail.py",
        "function tiny.mail.send mail",
        "def send_mail(host)",
        "Send a plain-text email.",
        "connect(host)",
    ]


def test_class_ghost_text_outlines_members_instead_of_repeating_their_code() -> None:
    code = textwrap.dedent(
        '''
        class Calendar(Base):
            """A list of dated events."""
            limit: int = 3

            @property
            def size(self,
                     strict: bool = False) -> int:
                """How many events."""
                return len(self.events)

            async def clear(self): self.events = []
        '''
    )
    text = node_ghost_text(
        {
            "path": "cal.py",
            "qualified_name": "cal.Calendar",
            "kind": "Class",
            "signature": "class Calendar(Base)",
            "docstring": "A list of dated events.",
            "code": code,
        }
    )
    assert text.splitlines()[-1] == (
        "limit: int = 3 def size(self, strict: bool = False) -> int: async def clear(self):"
    )


def test_second_run_embeds_nothing(graph: Neo4jClient, cfg: Settings, tiny: Path) -> None:
    api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=HashingEmbedder())
    embedder = CountingEmbedder(HashingEmbedder())
    report = api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=embedder)
    assert (report.embedded, report.embedding_cache_hits, embedder.calls) == (0, 0, 0)
    # also after a full rebuild of the graph: the nodes are rewritten, their text is not new
    report = api.index_repository(
        tiny, "tiny", client=graph, settings=cfg, embedder=embedder, full=True
    )
    assert (report.embedded, embedder.calls) == (0, 0)
    assert missing_vectors(graph, "tiny") == []


def test_changed_file_reembeds_only_its_changed_symbols(
    graph: Neo4jClient, cfg: Settings, tiny: Path
) -> None:
    api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=HashingEmbedder())
    before = {node_id: p["content_hash"] for node_id, p in nodes(graph, "tiny").items()}
    dates = tiny / "src/tiny/dates.py"
    dates.write_text(dates.read_text().replace('"%d.%m.%Y"', '"%d/%m/%Y"'))
    embedder = CountingEmbedder(HashingEmbedder())
    report = api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=embedder)
    after = nodes(graph, "tiny")
    changed = {node_id for node_id, p in after.items() if before.get(node_id) != p["content_hash"]}
    assert changed == {"tiny:tiny.dates", "tiny:tiny.dates.format_date"}
    assert report.embedded == 2
    assert sorted(embedder.texts) == sorted(node_ghost_text(after[n]) for n in changed)
    assert missing_vectors(graph, "tiny") == []


def test_identical_code_in_another_repository_comes_from_the_cache(
    graph: Neo4jClient, cfg: Settings, tiny: Path, tmp_path: Path
) -> None:
    api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=HashingEmbedder())
    copy = shutil.copytree(tiny, tmp_path / "fork")
    embedder = CountingEmbedder(HashingEmbedder())
    report = api.index_repository(copy, "fork", client=graph, settings=cfg, embedder=embedder)
    assert embedder.calls == 0
    assert report.embedded == 0
    assert report.embedding_cache_hits == 9
    assert missing_vectors(graph, "fork") == []
    # a changed symbol in the fork is embedded; its unchanged siblings still are not
    mail = copy / "src/tiny/mail.py"
    mail.write_text(mail.read_text().replace("plain-text email", "plain-text e-mail"))
    report = api.index_repository(copy, "fork", client=graph, settings=cfg, embedder=embedder)
    assert report.embedded == 2  # the module and send_mail
    assert report.embedding_cache_hits == 0


def test_same_run_over_two_repositories_embeds_each_text_once(
    graph: Neo4jClient, cfg: Settings, tiny: Path, tmp_path: Path
) -> None:
    copy = shutil.copytree(tiny, tmp_path / "fork")
    for path, repo in ((tiny, "tiny"), (copy, "fork")):
        api.index_repository(path, repo, client=graph, settings=cfg, embed=False)
    embedder = CountingEmbedder(HashingEmbedder())
    # Tiny chunks: a text's twin is in the same chunk, the next chunk (whose write may not
    # have landed when it was read) or a later one; each path must find the first vector.
    report = embed_pending(graph, None, embedder, chunk_size=2, batch_size=1)
    assert report.pending == 18
    assert (report.embedded, report.cache_hits, report.written) == (9, 9, 18)
    assert len(embedder.texts) == len(set(embedder.texts)) == 9
    assert missing_vectors(graph, "tiny") == missing_vectors(graph, "fork") == []


def test_interrupted_run_is_resumed_by_the_next(
    graph: Neo4jClient, cfg: Settings, tiny: Path
) -> None:
    api.index_repository(tiny, "tiny", client=graph, settings=cfg, embed=False)
    failing = CountingEmbedder(HashingEmbedder(), fail_after=5)
    with pytest.raises(EmbeddingError, match="simulated"):
        embed_pending(graph, "tiny", failing, chunk_size=2, batch_size=1)
    left = missing_vectors(graph, "tiny")
    assert 0 < len(left) < 9
    assert 9 - len(left) >= 4  # the chunks finished before the failure were written
    embedder = CountingEmbedder(HashingEmbedder())
    report = embed_pending(graph, "tiny", embedder, chunk_size=2)
    assert report.pending == report.embedded == len(left)
    assert not report.stopped_early
    assert missing_vectors(graph, "tiny") == []


def test_limit_and_cancel_stop_early_and_keep_what_was_done(
    graph: Neo4jClient, cfg: Settings, tiny: Path
) -> None:
    api.index_repository(tiny, "tiny", client=graph, settings=cfg, embed=False)
    report = embed_pending(graph, "tiny", HashingEmbedder(), limit=3, chunk_size=2)
    assert (report.pending, report.written, report.stopped_early) == (9, 3, True)
    assert len(missing_vectors(graph, "tiny")) == 6
    cancel = threading.Event()

    class CancelAfterOneBatch(CountingEmbedder):
        def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
            cancel.set()
            return super().embed_documents(texts)

    embedder = CancelAfterOneBatch(HashingEmbedder())
    report = embed_pending(graph, "tiny", embedder, batch_size=2, cancel=cancel)
    assert (report.embedded, report.written, report.stopped_early) == (2, 2, True)
    assert len(missing_vectors(graph, "tiny")) == 4


def test_another_model_is_refused_unless_reembedding(
    graph: Neo4jClient, cfg: Settings, tiny: Path
) -> None:
    api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=HashingEmbedder())
    other = HashingEmbedder(dimensions=64)
    with pytest.raises(EmbeddingMismatchError) as raised:
        api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=other)
    assert "hashing-blake2b-256" in str(raised.value)
    assert "hashing-blake2b-64" in str(raised.value)
    with pytest.raises(EmbeddingMismatchError):
        api.embed_repository("tiny", client=graph, settings=cfg, embedder=other)
    report = api.embed_repository("tiny", client=graph, settings=cfg, embedder=other, reembed=True)
    assert (report.embedded, report.cache_hits) == (9, 0)
    for props in nodes(graph, "tiny").values():
        assert props["embedded_model"] == "hashing-blake2b-64"
        assert len(props["embedding"]) == 64
    dimensions = graph.read(
        "SHOW VECTOR INDEXES YIELD name, options WHERE name = 'code_embedding' "
        "RETURN options.indexConfig.`vector.dimensions` AS dimensions"
    )
    assert dimensions == [{"dimensions": 64}]


def test_reembed_with_the_same_model_recomputes_everything(
    graph: Neo4jClient, cfg: Settings, tiny: Path
) -> None:
    api.index_repository(tiny, "tiny", client=graph, settings=cfg, embedder=HashingEmbedder())
    embedder = CountingEmbedder(HashingEmbedder())
    code = CodeGraph(cfg, client=graph, embedder=embedder)
    report = code.embed("tiny", reembed=True)
    assert report.embedded == len(embedder.texts) == 9
    with pytest.raises(IngestError, match="no repository 'nope'"):
        code.embed("nope")


def test_the_graph_answers_while_the_embedding_stage_runs(
    graph: Neo4jClient, cfg: Settings, tiny: Path
) -> None:
    """Issue 56: the repository is complete, `callers` and text search answer without an
    `incomplete` warning, while an embedder holds the stage open; vector search says no
    vector is stored yet (`vectors_absent`, then `vectors_partial` while chunks go in)."""
    entered, release = threading.Event(), threading.Event()

    class HeldOpen(CountingEmbedder):
        def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
            if self.calls == 0:  # the stage waits before its first batch
                entered.set()
                assert release.wait(60), "the test never released the embedder"
            return super().embed_documents(texts)

    held = HeldOpen(HashingEmbedder())
    failed: list[BaseException] = []
    stages: list[str] = []

    class Stages:
        def stage(self, name: str, total: int | None = None) -> None:
            stages.append(name)

        def advance(self, amount: int = 1) -> None:
            return None

    def index() -> None:
        try:
            api.index_repository(
                tiny, "tiny", client=graph, settings=cfg, embedder=held, progress=Stages()
            )
        except Exception as exc:  # noqa: BLE001 - reported in the test's thread
            failed.append(exc)
            entered.set()

    indexing = threading.Thread(target=index)
    indexing.start()
    try:
        assert entered.wait(60)
        assert not failed, failed
        other = CodeGraph(cfg, client=graph, embedder=HashingEmbedder())
        callers = other.related("callers", "parse_date", repo="tiny")
        assert [c.qualified_name for c in callers.certain] == ["tiny.dates.Calendar.add_event"]
        assert callers.warnings == ()
        found = other.search("smtp", repo="tiny", options=SearchOptions(legs=("text",)))
        assert "tiny.mail.send_mail" in [h.qualified_name for h in found.hits]
        assert not [w for w in found.warnings if w.kind == "incomplete"]
        vector = other.search("parse a date", repo="tiny")
        assert [w.kind for w in vector.warnings] == ["vectors_absent"]
    finally:
        release.set()
        indexing.join(60)
    assert not failed, failed
    assert missing_vectors(graph, "tiny") == []
    assert stages[-1] == api.GRAPH_READY  # the bar says the graph answers already


@pytest.mark.usefixtures("cli_env")
def test_cli_index_with_embedding_later_then_embed(
    graph: Neo4jClient, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["index", str(tiny), "--repo", "tiny", "--embed", "later", "--json"]) == 0
    said = capsys.readouterr()
    report = json.loads(said.out)
    assert report["vectors_pending"] == 9
    assert report["embed_command"] == "graphrag-code embed --repo tiny"
    assert "fill them in with `graphrag-code embed --repo tiny`" in " ".join(said.err.split())
    stored = nodes(graph, "tiny")
    assert all(p.get("embedding") is None for p in stored.values())
    assert all(p["search_text"] for p in stored.values())
    fulltext = graph.read(
        "CALL db.index.fulltext.queryNodes('code_search_text', 'smtp') YIELD node "
        "RETURN node.id AS id LIMIT 1"
    )
    assert fulltext == [{"id": "tiny:tiny.mail.send_mail"}]
    capsys.readouterr()

    assert cli_main(["embed", "--repo", "tiny"]) == 0
    out = capsys.readouterr().out
    assert "9 embedded, 0 reused" in out
    assert missing_vectors(graph, "tiny") == []
    assert cli_main(["embed"]) == 0
    assert "every vector is up to date" in capsys.readouterr().out
    assert cli_main(["embed", "--repo", "tiny", "--reembed", "--json"]) == 0
    assert '"embedded": 9' in capsys.readouterr().out


@pytest.mark.usefixtures("cli_env")
def test_cli_embed_names_both_models_on_a_mismatch(
    graph: Neo4jClient, cfg: Settings, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api.index_repository(
        tiny, "tiny", client=graph, settings=cfg, embedder=HashingEmbedder(dimensions=64)
    )
    assert cli_main(["embed"]) == 1
    err = capsys.readouterr().err
    assert "hashing-blake2b-64" in err
    assert "hashing-blake2b-256" in err
    assert cli_main(["index", str(tiny), "--repo", "tiny"]) == 1
    assert cli_main(["embed", "--reembed"]) == 0
    assert missing_vectors(graph, "tiny") == []


def test_minilm_ranks_the_sqlite_save_method_first(
    neo4j: Neo4jClient, cfg: Settings, tmp_path: Path
) -> None:
    drop_search_indexes(neo4j)
    settings = cfg.model_copy(update={"embedder": "minilm"})
    embedder = MiniLMEmbedder()
    report = api.index_repository(SHOP, "shop", client=neo4j, settings=settings, embedder=embedder)
    assert report.embedded == len(nodes(neo4j, "shop"))
    question = embedder.embed_query("insert a record into the SQLite database")
    hits = neo4j.read(
        "CALL db.index.vector.queryNodes('code_embedding', 5, $vector) YIELD node, score "
        "RETURN node.id AS id, score",
        {"vector": question},
    )
    assert hits[0]["id"] == "shop:shop.storage.sqlite.SqliteStorage.save", hits
    assert math.isfinite(hits[0]["score"])
    drop_search_indexes(neo4j)
