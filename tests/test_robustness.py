"""Regression tests for the faults a probe found (issue 13), one or more per numbered item.

The CLI side of the same faults (exit codes, messages, no traceback, no secret, nothing lost)
is in `test_failure_matrix.py`; this module checks the library behaviour behind it, against the
real Neo4j wherever the item involves the server.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphrag_code import api
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder, ghost_text
from graphrag_code.errors import (
    ConfigurationError,
    InvalidArgumentError,
    Neo4jQueryError,
    RepositoryNotFoundError,
)
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.failures import library_error
from graphrag_code.graph.schema import ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.languages import languages, suffix_map
from graphrag_code.parsing.walker import walk_changes, walk_repository
from graphrag_code.retrieval.question import analyse, lucene_query
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.runtime.endpoint import Neo4jEndpoint, redact_uri, split_credentials
from graphrag_code.runtime.folders import writable_folder
from graphrag_code.runtime.server.endpoints import resolve_endpoint
from graphrag_code.settings import Settings, load_settings

from .conftest import drop_search_indexes

SUFFIXES = suffix_map(languages())
DEEP_TERMS = 3000


def _deep_function() -> str:
    return "def t():\n    return " + "+".join(["1"] * DEEP_TERMS) + "\n"


@pytest.fixture
def cfg(settings: Settings, tmp_path: Path) -> Settings:
    return settings.model_copy(update={"cache_dir": tmp_path / "cache", "embedder": "hashing"})


@pytest.fixture
def graph(neo4j: Neo4jClient, cfg: Settings) -> Iterator[Neo4jClient]:
    """An empty graph with the default-named indexes built for the hashing embedder."""
    drop_search_indexes(neo4j)
    embedder = HashingEmbedder()
    ensure_schema(
        neo4j, api.schema_config(cfg, dimensions=embedder.dimensions, model=embedder.name)
    )
    yield neo4j
    drop_search_indexes(neo4j)


def _small_repo(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "ok.py").write_text('def fine():\n    """A normal function."""\n    return 1\n')
    return root


# -- 1. a deeply nested expression ------------------------------------------------------------
def test_ghost_text_of_a_too_deeply_nested_body_falls_back_to_plain_text() -> None:
    text = ghost_text(
        path="deep.py",
        qualified_name="deep.t",
        kind="function",
        signature="def t()",
        docstring=None,
        code=_deep_function(),
    )
    assert text.startswith("deep.py\nfunction deep")
    assert "return 1+1+1" in text  # the body, as plain text


def test_a_deeply_nested_file_costs_nothing_but_its_own_ghost_text(
    graph: Neo4jClient, cfg: Settings, tmp_path: Path
) -> None:
    root = _small_repo(tmp_path / "deeprepo")
    (root / "pkg" / "deep.py").write_text(_deep_function())
    report = api.index_repository(
        root, "deeprepo", client=graph, settings=cfg, embedder=HashingEmbedder()
    )
    missing = graph.read(
        "MATCH (n:Code {repo: 'deeprepo'}) WHERE n.embedding IS NULL RETURN n.id AS id"
    )
    assert missing == []
    assert report.embedded >= 4  # the modules and both functions, deep.t included
    assert GraphWriter(graph, "deeprepo").repository_state()["status"] == "complete"  # type: ignore[index]
    again = api.embed_repository("deeprepo", client=graph, settings=cfg, embedder=HashingEmbedder())
    assert again.pending == 0


# -- 3. question analysis is linear -----------------------------------------------------------
def test_full_text_queries_keep_non_ascii_terms() -> None:
    """Issue 57, item 11: "Ünïcödé" was asked as nothing, "café order" as "order"."""
    assert lucene_query(analyse("Ünïcödé")) == "ünïcödé"
    assert "café" in (lucene_query(analyse("café order")) or "").split()
    assert analyse("who calls `naïve_fn`?").identifiers == ("naïve_fn",)
    assert lucene_query(analyse("where is pkg.mod.fn defined?")) == "pkg mod fn"  # as before


@pytest.mark.parametrize(
    ("question", "before_s"),
    [("a-b/" * 25_000, 37.8), ("where is x " * 9_000, 8.2), ("what does " * 9_000, None)],
    ids=["path-regex", "where-is", "what-does"],
)
def test_crafted_questions_are_analysed_in_bounded_time(
    question: str, before_s: float | None
) -> None:
    """Benchmark-style bound, generous for two busy shared cores: a linear analysis of 100 kB
    takes ~0.1 s here; the quadratic one took `before_s` seconds."""
    started = time.perf_counter()
    lucene_query(analyse(question))
    assert time.perf_counter() - started < 3.0


def test_phrases_still_decide_the_intent() -> None:
    assert analyse("where is `save` called?").intent.value == "callers"
    assert analyse("what does OrderService.place call?").intent.value == "callees"
    assert analyse("what breaks if I change my-pkg/foo.py?").paths == ("my-pkg/foo.py",)


# -- 4. FIFOs named *.py ----------------------------------------------------------------------
def test_walker_reports_a_fifo_and_never_opens_it(tmp_path: Path) -> None:
    root = _small_repo(tmp_path / "fifo")
    os.mkfifo(root / "pkg" / "pipe.py")
    walked = walk_repository(root, languages=SUFFIXES)
    assert [skip.reason for skip in walked.skipped] == ["not a regular file (FIFO)"]
    known = {f.path: (f.size, f.mtime_ns, f.sha256) for f in walked.files}
    changed = walk_changes(
        root, languages=SUFFIXES, known=known, changed=[str(root / "pkg" / "pipe.py")]
    )
    assert changed is not None
    assert [skip.path for skip in changed.skipped] == ["pkg/pipe.py"]


def test_watch_goes_on_indexing_after_a_fifo_appears(
    graph: Neo4jClient, cfg: Settings, tmp_path: Path
) -> None:
    from graphrag_code.api import watch_repository

    root = _small_repo(tmp_path / "watched")
    api.index_repository(root, "watched", client=graph, settings=cfg, embed=False)
    reports: list[object] = []
    stop = threading.Event()
    watcher = threading.Thread(
        target=watch_repository,
        args=(root, "watched"),
        kwargs={
            "client": graph, "settings": cfg, "on_report": reports.append,
            "debounce_ms": 200, "stop_after": 2, "embed": False, "stop_event": stop,
        },
    )  # fmt: skip
    watcher.start()
    try:
        time.sleep(1.0)  # let the watcher subscribe
        os.mkfifo(root / "pkg" / "pipe.py")
        time.sleep(1.5)
        (root / "pkg" / "later.py").write_text("def added_later():\n    return 2\n")
        watcher.join(timeout=60)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert not watcher.is_alive()
    found = graph.read("MATCH (n:Function {id: 'watched:pkg.later.added_later'}) RETURN n.id")
    assert len(found) == 1
    assert any(
        skip.path == "pkg/pipe.py"
        for report in reports
        for skip in report.skipped  # type: ignore[attr-defined]
    )


# -- 5. a password inside NEO4J_URI -----------------------------------------------------------
def test_credentials_in_the_uri_are_taken_out_of_it() -> None:
    uri, user, password = split_credentials("neo4j+s://me:p%40ss@db.example.com:7687")
    assert uri == "neo4j+s://db.example.com:7687"
    assert user == "me"
    assert password is not None
    assert password.get_secret_value() == "p@ss"
    assert redact_uri("bolt://me:secret@host") == "bolt://***@host"
    endpoint = resolve_endpoint(Settings(neo4j_uri="bolt://me:secret@host:7687"))
    assert endpoint.uri == "bolt://host:7687"
    assert endpoint.auth() == ("me", "secret")
    assert "secret" not in repr(endpoint)
    explicit = resolve_endpoint(
        Settings(neo4j_uri="bolt://me:secret@host", neo4j_username="other", neo4j_password="pw")
    )
    assert explicit.auth() == ("other", "pw")


# -- 6. a wrong password, then the right one --------------------------------------------------
@pytest.fixture(scope="module")
def spare_user(session_client: Neo4jClient) -> Iterator[tuple[str, str]]:
    """A user of its own, so the login lock after wrong passwords never hits `neo4j`."""
    endpoint = session_client.endpoint
    if endpoint.source != "local":
        pytest.skip("creates a user: only on the managed test server")
    name, password = "robust_user", "robust-pass-1"
    with GraphDatabase.driver(endpoint.uri, auth=endpoint.auth()) as driver:
        driver.execute_query(
            f"CREATE OR REPLACE USER {name} SET PASSWORD $password CHANGE NOT REQUIRED",
            {"password": password},
            database_="system",
        )
        yield name, password
        driver.execute_query(f"DROP USER {name} IF EXISTS", database_="system")


def _as_user(endpoint: Neo4jEndpoint, user: str, password: str) -> Neo4jClient:
    from pydantic import SecretStr

    return Neo4jClient(
        Neo4jEndpoint(endpoint.uri, user, SecretStr(password), endpoint.database, "env")
    )


def test_the_right_password_works_right_after_wrong_ones(
    session_client: Neo4jClient, spare_user: tuple[str, str]
) -> None:
    user, password = spare_user
    for attempt in range(4):  # Neo4j locks the user out after 3 failures
        with (
            _as_user(session_client.endpoint, user, f"wrong-{attempt}") as client,
            pytest.raises(ConfigurationError, match=r"rejected the credentials|refuses logins"),
        ):
            client.verify()
    with _as_user(session_client.endpoint, user, password) as client:
        client.verify()  # waits out the lock instead of failing
        assert client.read("RETURN 1 AS one") == [{"one": 1}]


# -- 7. LOAD CSV and local files --------------------------------------------------------------
@pytest.mark.parametrize("access", ["read", "write"])
def test_the_managed_server_refuses_file_urls(session_client: Neo4jClient, access: str) -> None:
    if session_client.endpoint.source != "local":
        pytest.skip("a setting of the managed local server")
    run = session_client.read if access == "read" else session_client.write
    with pytest.raises(Neo4jQueryError, match="allow_csv_import_from_file_urls"):
        run("LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line LIMIT 1")


def test_the_managed_server_prunes_its_transaction_logs(
    session_client: Neo4jClient, settings: Settings
) -> None:
    """Neo4j's default keeps two days of transaction logs whatever their size (22 GB after a
    day of benchmarks here); the managed server keeps what the setting says."""
    if session_client.endpoint.source != "local":
        pytest.skip("a setting of the managed local server")
    rows = session_client.read(
        "SHOW SETTINGS YIELD name, value WHERE name = $name RETURN value",
        {"name": "db.tx_log.rotation.retention_policy"},
    )
    assert rows == [{"value": settings.tx_log_retention}]
    assert settings.tx_log_retention == "256M size"


# -- 8. tracebacks instead of messages --------------------------------------------------------
@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("GRAPHRAG_CODE_HEAP", "lots", "must be a size"),
        ("GRAPHRAG_CODE_TX_LOG_RETENTION", "forever", "must be a Neo4j retention policy"),
    ],
)
def test_invalid_settings_name_the_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=f"{variable}: {message}"):
        load_settings()


@pytest.mark.parametrize("policy", ["keep_none", "2 files", "500M size", "2 days 1G"])
def test_neo4j_retention_policies_are_accepted(
    monkeypatch: pytest.MonkeyPatch, policy: str
) -> None:
    monkeypatch.setenv("GRAPHRAG_CODE_TX_LOG_RETENTION", policy)
    assert load_settings().tx_log_retention == policy


def test_a_folder_that_is_a_file_or_unwritable_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ConfigurationError, match=r"is a file, not a folder.*GRAPHRAG_CODE_X"):
        writable_folder(blocker, setting="GRAPHRAG_CODE_X")
    with pytest.raises(ConfigurationError, match="a part of that path is a file"):
        writable_folder(blocker / "below", setting="GRAPHRAG_CODE_X")
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(ConfigurationError, match="cannot be written"):
            writable_folder(locked, setting="GRAPHRAG_CODE_X")


def test_an_unwritable_cache_fails_before_the_graph_is_touched(
    graph: Neo4jClient, cfg: Settings, tmp_path: Path
) -> None:
    root = _small_repo(tmp_path / "nocache")
    blocker = tmp_path / "cache-file"
    blocker.write_text("")
    broken = cfg.model_copy(update={"cache_dir": blocker})
    with pytest.raises(ConfigurationError, match="GRAPHRAG_CODE_CACHE_DIR"):
        api.index_repository(root, "nocache", client=graph, settings=broken)
    assert GraphWriter(graph, "nocache").repository_state() is None  # not left "indexing"


def test_neo4j_client_errors_become_library_errors(session_client: Neo4jClient) -> None:
    with pytest.raises(Neo4jQueryError, match=r"Neo\.ClientError\.Statement\.SyntaxError"):
        session_client.read("RETURN 1 +")
    with pytest.raises(Neo4jQueryError, match=r"ParameterMissing"):
        session_client.write("RETURN $missing AS value")


def test_an_unknown_database_names_the_setting(session_client: Neo4jClient) -> None:
    endpoint = session_client.endpoint
    other = Neo4jEndpoint(endpoint.uri, endpoint.username, endpoint.password, "nosuchdb", "env")
    with (
        Neo4jClient(other) as client,
        pytest.raises(ConfigurationError, match=r"no database 'nosuchdb'.*NEO4J_DATABASE"),
    ):
        client.read("RETURN 1")


def test_a_transient_error_past_its_retries_says_to_try_again() -> None:
    """A real server's transient failure, as the driver builds it from the FAILURE message
    (no test server fails transiently on demand)."""
    from neo4j.exceptions import Neo4jError, TransientError

    hydrate = getattr(Neo4jError, "_hydrate_neo4j", None)
    if hydrate is None:
        pytest.skip("this driver version builds server errors differently")
    error = hydrate(
        code="Neo.TransientError.Transaction.DeadlockDetected", message="deadlock found."
    )
    assert isinstance(error, TransientError)
    endpoint = Neo4jEndpoint("bolt://me:secret@h:7687", "me", None, "neo4j", "env")
    converted = library_error(error, endpoint, retried=3)
    assert isinstance(converted, Neo4jQueryError)
    assert converted.code == "Neo.TransientError.Transaction.DeadlockDetected"
    assert "after 4 tries" in str(converted)
    assert "try again" in str(converted)
    assert "secret" not in str(converted)


# -- 9. smaller ones --------------------------------------------------------------------------
@pytest.mark.parametrize("k", [-5, 0])
def test_k_below_one_is_refused(k: int) -> None:
    with pytest.raises(InvalidArgumentError, match="k must be"):
        SearchOptions(k=k)


def test_delete_of_an_unknown_repository_says_so(graph: Neo4jClient, cfg: Settings) -> None:
    with pytest.raises(RepositoryNotFoundError, match="no repository 'ghost'"):
        CodeGraph(cfg, client=graph).delete("ghost")


def test_search_warns_about_an_interrupted_index(
    graph: Neo4jClient, cfg: Settings, tmp_path: Path
) -> None:
    root = _small_repo(tmp_path / "partial")
    api.index_repository(root, "partial", client=graph, settings=cfg, embedder=HashingEmbedder())
    with CodeGraph(cfg, client=graph, embedder=HashingEmbedder()) as code:
        assert code.search("a normal function", repo="partial").warnings == ()
        assert code.callers("fine", repo="partial").warnings == ()
    GraphWriter(graph, "partial").start_run(str(root), "interrupted-run")  # as if killed
    with CodeGraph(cfg, client=graph, embedder=HashingEmbedder()) as code:
        warned = code.search("a normal function", repo="partial")
        assert warned.hits
        (warning,) = warned.warnings
        assert (warning.kind, warning.repo) == ("incomplete", "partial")
        assert "not completely indexed" in warning.text
        assert f"graphrag-code index {root} --repo partial" in warning.text
        # every answer about the repository says so, not only search (issue 55)
        assert code.callers("fine", repo="partial").warnings == (warning,)
        assert code.path("pkg.ok", "fine", repo="partial").warnings == (warning,)
        assert code.entry_points("partial").warnings == (warning,)
        assert code.tests_for("fine", repo="partial").warnings == (warning,)
        assert code.build_context("a normal function", repo="partial").warnings == (warning,)
        # a repository the graph does not hold is an error naming the nearest (issue 55)
        with pytest.raises(RepositoryNotFoundError, match=r"no repository 'nope'.*partial"):
            code.search("x", repo="nope")


def test_state_and_data_files_are_private(
    graph: Neo4jClient, cfg: Settings, tmp_path: Path
) -> None:
    root = _small_repo(tmp_path / "private")
    api.index_repository(root, "private", client=graph, settings=cfg, embed=False)
    folder = cfg.cache_dir / "graphs"
    assert folder.stat().st_mode & 0o077 == 0
    states = list(folder.glob("private-*.pickle"))
    assert states
    assert all(path.stat().st_mode & 0o077 == 0 for path in states)


# -- 10. two index runs of one repository at once ---------------------------------------------
def test_a_second_index_of_the_same_repository_waits_and_says_so(
    graph: Neo4jClient, cfg: Settings, tmp_path: Path
) -> None:
    from graphrag_code.ingest.repo_lock import repository_lock

    root = _small_repo(tmp_path / "twice")
    messages: list[str] = []
    finished = threading.Event()

    def second_run() -> None:
        api.index_repository(
            root, "twice", client=graph, settings=cfg, embed=False, on_wait=messages.append
        )
        finished.set()

    # the first run, as another process would hold it
    with repository_lock(cfg.cache_dir / "graphs", graph, "twice", on_wait=messages.append):
        runner = threading.Thread(target=second_run)
        runner.start()
        time.sleep(1.0)
        assert not finished.is_set()  # it waits for the first run
        assert messages == [
            "another run is indexing repository 'twice' into this database; waiting for it "
            "to finish"
        ]
    runner.join(timeout=120)
    assert finished.is_set()
    assert GraphWriter(graph, "twice").repository_state()["status"] == "complete"  # type: ignore[index]
