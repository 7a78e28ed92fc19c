"""Indexing into the real Neo4j: the stored graph, incremental runs, interruptions, bad input."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from graphrag_code.graph import repo_label
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.queries import load_query
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import IndexOptions, build_graph
from graphrag_code.ingest.state import StateStore

SHOP = Path(__file__).parent / "fixtures" / "shop"


@pytest.fixture
def graph(neo4j: Neo4jClient) -> Neo4jClient:
    ensure_schema(neo4j, SchemaConfig())
    return neo4j


def dump(client: Neo4jClient, repo: str) -> dict[str, Any]:
    """Every node, relationship and property of one repository, in comparable form."""
    nodes = client.read(
        "MATCH (n:Code {repo: $repo}) RETURN n.id AS id, labels(n) AS labels, "
        "properties(n) AS props",
        {"repo": repo},
    )
    rels = client.read(
        "MATCH (s {repo: $repo})-[r]->(t) "
        "RETURN s.id AS s, type(r) AS type, coalesce(t.id, t.qualified_name) AS t, "
        "properties(r) AS props",
        {"repo": repo},
    )
    contains = client.read(
        "MATCH (:Repository {name: $repo})-[:CONTAINS]->(m) RETURN m.id AS id", {"repo": repo}
    )
    return {
        "nodes": {row["id"]: (sorted(row["labels"]), row["props"]) for row in nodes},
        "rels": sorted(
            (row["s"], row["type"], row["t"], sorted(row["props"].items())) for row in rels
        ),
        "contains": sorted(row["id"] for row in contains),
    }


def assert_equals_a_clean_index(
    client: Neo4jClient, root: Path, repo: str, incremental: dict[str, Any], state_dir: Path
) -> None:
    """`incremental` (the dump of `repo` after incremental runs) equals the graph a full index
    of `root` writes once the repository is deleted."""
    GraphWriter(client, repo).delete_repository()
    clean = build_graph(root, client, repo=repo, state_dir=state_dir)
    assert clean.mode == "full"
    assert dump(client, repo) == incremental


def test_index_writes_the_scope_tree_edges_and_properties(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    report = build_graph(SHOP, graph, repo="shop", state_dir=tmp_path)
    assert report.mode == "full"
    assert report.files_total == 11
    assert report.edges["CALLS/exact"] > 0
    assert report.edges["CALLS/name"] == 1
    labels = graph.read(
        "MATCH (n:Code {id: 'shop:shop.storage.sqlite.SqliteStorage.save'}) "
        "RETURN labels(n) AS labels, n.search_text AS text, n.start_line AS start, "
        "n.signature AS signature, n.docstring AS doc"
    )[0]
    # and the repository's own label, which its full-text index covers (graph/scoping.py)
    assert set(labels["labels"]) == {"Code", "Symbol", "Method", repo_label("shop")}
    assert labels["start"] == 16
    assert labels["signature"] == "def save(self, key: str, value: dict) -> None"
    assert labels["doc"] == "Insert or replace one record in the database."
    assert "sqlite storage" in labels["text"]  # identifiers split into words
    call = graph.read(
        "MATCH (:Code {id: 'shop:shop.repositories.OrderRepository.add'})-[r:CALLS]->"
        "(:Code {id: 'shop:shop.storage.sqlite.SqliteStorage.save'}) "
        "RETURN r.resolution AS resolution, r.lines AS lines, r.count AS count"
    )
    assert call == [{"resolution": "inferred", "lines": [15], "count": 1}]
    tree = graph.read(
        "MATCH (:Repository {name: 'shop'})-[:CONTAINS]->(m:Module {qualified_name: 'shop.models'})"
        "-[:DEFINES]->(c:Class)-[:DEFINES]->(f:Method) RETURN c.name AS c, f.name AS f "
        "ORDER BY c, f"
    )
    assert tree == [{"c": "Order", "f": "total_cents"}, {"c": "Product", "f": "display_price"}]
    users = graph.read(
        "MATCH (m:Module)-[:IMPORTS]->(e:External {qualified_name: 'requests'}) "
        "RETURN m.qualified_name AS m"
    )
    assert users == [{"m": "shop.cli"}]
    stats = graph.read(
        "MATCH (n:Code {id: 'shop:shop.cli.main'}) RETURN n.unresolved_calls AS u, "
        "n.out_degree AS out, n.pagerank > 0 AS ranked"
    )
    assert stats == [{"u": 1, "out": 3, "ranked": True}]  # three internal callees


def test_second_run_without_changes_writes_nothing(graph: Neo4jClient, tmp_path: Path) -> None:
    build_graph(SHOP, graph, repo="shop", state_dir=tmp_path)
    before = dump(graph, "shop")
    report = build_graph(SHOP, graph, repo="shop", state_dir=tmp_path)
    assert report.mode == "incremental"
    assert (report.files_parsed, report.nodes_written, report.files_relinked) == (0, 0, 0)
    assert dump(graph, "shop") == before


def test_a_run_that_finds_nothing_changed_reports_the_repository_without_reading_the_parses(
    graph: Neo4jClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new process (a fresh store) that finds every file as the last run left it reports
    that run's figures from the state's header and records the check on the repository's
    node; the parses and links are never read, and the next edit still links incrementally
    to the graph a clean index gives."""
    repo_dir = tmp_path / "shop"
    shutil.copytree(SHOP, repo_dir)
    state = tmp_path / "state"
    first = build_graph(repo_dir, graph, repo="calm", state_dir=state)
    before = dump(graph, "calm")
    stamp = "MATCH (r:Repository {name: 'calm'}) RETURN r.indexed_at AS at, r.state_token AS t"
    checked_before = graph.read(stamp)[0]

    def unread(*_args: object) -> None:
        raise AssertionError("the parses were read")

    with monkeypatch.context() as patched:
        patched.setattr(StateStore, "read_files", unread)
        report = build_graph(repo_dir, graph, repo="calm", state_dir=state)
    assert report.mode == "incremental"
    assert (report.files_parsed, report.files_unchanged) == (0, first.files_total)
    figures = ("files_total", "modules", "symbols", "edges", "unresolved_calls", "tests")
    assert {f: getattr(report, f) for f in figures} == {f: getattr(first, f) for f in figures}
    assert report.languages == first.languages
    assert "link" not in report.seconds
    assert dump(graph, "calm") == before
    checked = graph.read(stamp)[0]
    assert checked["t"] == checked_before["t"]  # the same run's graph, so the same state
    assert checked["at"] > checked_before["at"]

    models = repo_dir / "src/shop/models.py"
    models.write_text(models.read_text().replace("def format_cents(", "def format_money("))
    edited = build_graph(repo_dir, graph, repo="calm", state_dir=state)
    assert (edited.mode, edited.files_parsed) == ("incremental", 1)
    assert_equals_a_clean_index(graph, repo_dir, "calm", dump(graph, "calm"), tmp_path / "clean")


def _edit_shop(root: Path) -> None:
    """Body edit, interface change, new file, deleted file, renamed file."""
    sqlite = root / "src/shop/storage/sqlite.py"
    sqlite.write_text(sqlite.read_text().replace('print("saved", key)', 'print("stored", key)'))
    models = root / "src/shop/models.py"
    models.write_text(
        models.read_text()
        .replace("def format_cents(", "def format_money(")
        .replace("return format_cents(", "return format_money(")
    )
    (root / "src/shop/reports.py").write_text(
        "from shop.models import Order\n\n\ndef daily_total(orders: list[Order]) -> int:\n"
        "    return sum(o.total_cents() for o in orders)\n"
    )
    (root / "src/shop/cli.py").unlink()
    (root / "src/shop/util.py").rename(root / "src/shop/helpers.py")
    api = root / "src/shop/api.py"
    api.write_text(
        api.read_text().replace("from shop.util import route", "from shop.helpers import route")
    )


def test_incremental_graph_equals_a_clean_reindex(graph: Neo4jClient, tmp_path: Path) -> None:
    repo_dir = tmp_path / "shop"
    shutil.copytree(SHOP, repo_dir)
    state = tmp_path / "state"
    build_graph(repo_dir, graph, repo="inc", state_dir=state)
    _edit_shop(repo_dir)
    report = build_graph(repo_dir, graph, repo="inc", state_dir=state)
    assert report.mode == "incremental"
    # sqlite.py, models.py, reports.py, helpers.py, api.py; not the other six files
    assert report.files_parsed == 5
    assert report.files_removed == 2
    incremental = dump(graph, "inc")
    # the known failure: inbound edges of a changed file must survive
    assert any(
        r[0] == "inc:shop.storage.sqlite.SqliteStorage.save"
        and r[2] == "inc:shop.storage.sqlite.write_audit_log"
        for r in incremental["rels"]
    )
    assert any(
        r[0] == "inc:shop.repositories.OrderRepository.add"
        and r[2] == "inc:shop.storage.sqlite.SqliteStorage.save"
        for r in incremental["rels"]
    )
    assert_equals_a_clean_index(graph, repo_dir, "inc", incremental, tmp_path / "clean")


def test_a_body_edit_restates_only_its_own_nodes_and_equals_a_clean_reindex(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    """No node and no ranked edge changes: ranks are kept, and the edited function's
    unresolved calls are counted again (the unchanged-ranks path)."""
    repo_dir = tmp_path / "shop"
    shutil.copytree(SHOP, repo_dir)
    state = tmp_path / "state"
    build_graph(repo_dir, graph, repo="body", state_dir=state)
    before = dump(graph, "body")
    sqlite = repo_dir / "src/shop/storage/sqlite.py"
    sqlite.write_text(
        sqlite.read_text().replace(
            'print("saved", key)', 'print("saved", key)\n        mystery(key)'
        )
    )
    report = build_graph(repo_dir, graph, repo="body", state_dir=state)
    assert report.files_parsed == 1
    edited = dump(graph, "body")
    audit = "body:shop.storage.sqlite.write_audit_log"
    assert edited["nodes"][audit][1]["unresolved_calls"] == (
        before["nodes"][audit][1]["unresolved_calls"] + 1
    )
    assert "mystery" in edited["nodes"][audit][1]["unresolved_names"]
    GraphWriter(graph, "body").delete_repository()
    build_graph(repo_dir, graph, repo="body", state_dir=tmp_path / "clean")
    assert dump(graph, "body") == edited


def test_a_fresh_repository_is_created_as_the_merging_path_writes_it(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    """A repository with nothing in the graph is written with CREATE (and its statistics with
    its nodes); the MERGE path over the same graph changes nothing and adds nothing."""
    created_report = build_graph(SHOP, graph, repo="fresh", state_dir=tmp_path / "a")
    created = dump(graph, "fresh")
    ends = [(r[0], r[1], r[2]) for r in created["rels"]]
    assert len(ends) == len(set(ends))  # no relationship written twice
    assert created_report.edges_written > 0
    assert all("pagerank" in props for _, props in created["nodes"].values())
    merged_report = build_graph(SHOP, graph, repo="fresh", state_dir=tmp_path / "b")
    assert merged_report.mode == "full"  # no state for this directory, nodes in the graph
    assert dump(graph, "fresh") == created


def test_an_interface_edit_writes_only_the_edges_that_changed(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    """A new function in a module that others import relinks the importers, whose edges all
    come out the same: none is written again, and the graph equals a clean run's."""
    repo_dir = tmp_path / "shop"
    shutil.copytree(SHOP, repo_dir)
    state = tmp_path / "state"
    full = build_graph(repo_dir, graph, repo="diff", state_dir=state)
    assert full.edges_written == len(dump(graph, "diff")["rels"]) - _structural(graph, "diff")
    models = repo_dir / "src/shop/models.py"
    models.write_text(models.read_text() + "\n\ndef unused_helper() -> int:\n    return 1\n")
    report = build_graph(repo_dir, graph, repo="diff", state_dir=state)
    assert report.files_parsed == 1
    assert report.files_relinked > 1  # the importers of shop.models
    assert (report.edges_written, report.edges_deleted) == (0, 0)
    # a call to a function of another module changes one edge of the caller's file
    orders = repo_dir / "src/shop/reports_new.py"
    orders.write_text(
        "from shop.models import unused_helper\n\n\ndef total() -> int:\n"
        "    return unused_helper()\n"
    )
    models.write_text(models.read_text().replace("return 1\n", "return 2\n"))
    report = build_graph(repo_dir, graph, repo="diff", state_dir=state)
    assert report.edges_deleted == 0
    assert 0 < report.edges_written < full.edges_written
    edited = dump(graph, "diff")
    assert any(
        r[0] == "diff:shop.reports_new.total" and r[2] == "diff:shop.models.unused_helper"
        for r in edited["rels"]
    )
    GraphWriter(graph, "diff").delete_repository()
    build_graph(repo_dir, graph, repo="diff", state_dir=tmp_path / "clean")
    assert dump(graph, "diff") == edited


def _structural(client: Neo4jClient, repo: str) -> int:
    """Relationships that are not link edges (scope tree, TESTS)."""
    rows = client.read(
        "MATCH ({repo: $repo})-[r]->() WHERE NOT type(r) IN "
        "['CALLS', 'IMPORTS', 'INHERITS', 'USES_TYPE'] RETURN count(r) AS n",
        {"repo": repo},
    )
    return int(rows[0]["n"])


def test_warm_incremental_with_watcher_hints_equals_a_clean_reindex(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    """The watch-mode path: state kept in memory, lookup tables updated in place, and only
    the paths a watcher reported are looked at."""
    from graphrag_code.ingest.pipeline import IndexOptions
    from graphrag_code.ingest.state import StateStore

    repo_dir = tmp_path / "shop"
    shutil.copytree(SHOP, repo_dir)
    store = StateStore(tmp_path / "state")
    build_graph(repo_dir, graph, repo="warm", store=store)
    before = {p.relative_to(repo_dir).as_posix() for p in repo_dir.rglob("*.py")}
    _edit_shop(repo_dir)
    after = {p.relative_to(repo_dir).as_posix() for p in repo_dir.rglob("*.py")}
    changed = {
        "src/shop/storage/sqlite.py", "src/shop/models.py", "src/shop/api.py",
    } | (before ^ after)  # fmt: skip
    report = build_graph(
        repo_dir, graph, repo="warm", store=store,
        options=IndexOptions(changed_paths=frozenset(str(repo_dir / p) for p in changed)),
    )  # fmt: skip
    assert report.mode == "incremental"
    assert report.files_parsed == 5
    warm = dump(graph, "warm")
    store.wait()
    GraphWriter(graph, "warm").delete_repository()
    build_graph(repo_dir, graph, repo="warm", state_dir=tmp_path / "clean")
    assert dump(graph, "warm") == warm


class _Crash(RuntimeError):
    pass


class _CrashWhileWritingEdges:
    def __init__(self) -> None:
        self.stage_name = ""

    def stage(self, name: str, total: int | None = None) -> None:
        self.stage_name = name

    def advance(self, amount: int = 1) -> None:
        if self.stage_name == "writing edges":
            raise _Crash("simulated crash")


def test_interrupted_run_is_completed_by_rerunning(graph: Neo4jClient, tmp_path: Path) -> None:
    repo_dir = tmp_path / "shop"
    shutil.copytree(SHOP, repo_dir)
    build_graph(repo_dir, graph, repo="crash", state_dir=tmp_path / "s")
    _edit_shop(repo_dir)
    with pytest.raises(_Crash):
        build_graph(
            repo_dir,
            graph,
            repo="crash",
            state_dir=tmp_path / "s",
            progress=_CrashWhileWritingEdges(),
        )
    status = graph.read("MATCH (r:Repository {name: 'crash'}) RETURN r.status AS s")
    assert status == [{"s": "indexing"}]
    rerun = build_graph(repo_dir, graph, repo="crash", state_dir=tmp_path / "s")
    assert rerun.mode == "full"  # an unfinished run is never trusted
    recovered = dump(graph, "crash")
    GraphWriter(graph, "crash").delete_repository()
    build_graph(repo_dir, graph, repo="crash", state_dir=tmp_path / "clean")
    assert dump(graph, "crash") == recovered


def test_bad_input_is_reported_and_the_rest_indexed(graph: Neo4jClient, tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text("def fine():\n    return 1\n")
    (tmp_path / "broken.py").write_text("def ok():\n    pass\n\ndef bad(:\n    pass\n")
    (tmp_path / "blob.py").write_bytes(b"\x00\x01\x02")
    (tmp_path / "latin.py").write_bytes("# coding: latin-1\ns = 'caf\xe9'\n".encode("latin-1"))
    (tmp_path / "mystery.py").write_bytes(b"s = '\xff\xfe\xfd'\n")
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    report = build_graph(tmp_path, graph, repo="bad", state_dir=tmp_path / ".state")
    skipped = {s.path: s.reason for s in report.skipped}
    assert skipped["blob.py"].startswith("binary")
    assert skipped["mystery.py"].startswith("not UTF-8")
    assert "looping" in skipped["loop.py"]
    assert "broken.py" in report.parse_issues
    names = {
        row["q"] for row in graph.read("MATCH (n:Code {repo: 'bad'}) RETURN n.qualified_name AS q")
    }
    assert {"good", "good.fine", "broken", "broken.ok", "latin"} <= names
    issues = graph.read("MATCH (m:Module {id: 'bad:broken'}) RETURN m.parse_issues AS n")
    assert issues[0]["n"] >= 1


def test_repositories_side_by_side_do_not_collide(graph: Neo4jClient, tmp_path: Path) -> None:
    build_graph(SHOP, graph, repo="shop-a", state_dir=tmp_path)
    build_graph(SHOP, graph, repo="shop-b", state_dir=tmp_path)
    counts = graph.read(
        "MATCH (n:Code) WHERE n.repo IN ['shop-a', 'shop-b'] RETURN n.repo AS repo, count(*) AS n "
        "ORDER BY repo"
    )
    assert counts[0]["n"] == counts[1]["n"] > 30
    crossing = graph.read(
        "MATCH (a:Code {repo: 'shop-a'})-[r]->(b:Code {repo: 'shop-b'}) RETURN count(r) AS n"
    )
    assert crossing == [{"n": 0}]
    GraphWriter(graph, "shop-a").delete_repository()
    left = graph.read("MATCH (n:Code {repo: 'shop-b'}) RETURN count(n) AS n")
    assert left[0]["n"] == counts[1]["n"]


def test_invalid_repository_names_are_refused(graph: Neo4jClient, tmp_path: Path) -> None:
    from graphrag_code.errors import IngestError

    with pytest.raises(IngestError, match="repository name"):
        build_graph(SHOP, graph, repo="bad name; DROP", state_dir=tmp_path)


def test_full_option_rebuilds(graph: Neo4jClient, tmp_path: Path) -> None:
    build_graph(SHOP, graph, repo="shop", state_dir=tmp_path)
    report = build_graph(
        SHOP, graph, repo="shop", state_dir=tmp_path, options=IndexOptions(full=True)
    )
    assert report.mode == "full"
    assert report.files_parsed == 11


def test_watch_reindexes_after_a_change(graph: Neo4jClient, tmp_path: Path) -> None:
    import threading
    import time

    from graphrag_code.codegraph import CodeGraph
    from graphrag_code.embedding import HashingEmbedder
    from graphrag_code.ingest.watch import relevant_change
    from graphrag_code.settings import Settings

    assert relevant_change(str(tmp_path / "pkg" / "mod.py"), tmp_path)
    assert not relevant_change(str(tmp_path / ".venv" / "lib" / "x.py"), tmp_path)
    assert not relevant_change(str(tmp_path / "README.md"), tmp_path)
    repo_dir = tmp_path / "shop"
    shutil.copytree(SHOP, repo_dir)
    settings = Settings(cache_dir=tmp_path / "cache", embedder="hashing")
    embedder = HashingEmbedder()
    ensure_schema(graph, SchemaConfig(dimensions=embedder.dimensions, model=embedder.name))
    build_graph(repo_dir, graph, repo="watched", state_dir=settings.cache_dir / "graphs")
    reports: list[Any] = []
    stop = threading.Event()
    code = CodeGraph(settings, client=graph, embedder=embedder)
    watcher = threading.Thread(
        target=code.watch,
        args=(repo_dir, "watched"),
        kwargs={
            "on_report": reports.append, "debounce_ms": 200, "stop_after": 1, "embed": False,
            "stop_event": stop,
        },
    )  # fmt: skip
    watcher.start()
    try:
        time.sleep(1.0)  # let the watcher subscribe before the edit
        util = repo_dir / "src" / "shop" / "util.py"
        util.write_text(util.read_text() + "\n\ndef added_while_watching():\n    return 2\n")
        watcher.join(timeout=60)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert len(reports) == 1
    assert reports[0].mode == "incremental"
    assert reports[0].files_parsed == 1
    found = graph.read(
        "MATCH (n:Function {id: 'watched:shop.util.added_while_watching'}) RETURN n.path AS p"
    )
    assert found == [{"p": "src/shop/util.py"}]


def test_paused_gc_nests_and_restores_the_collector() -> None:
    import gc

    from graphrag_code.ingest.state import paused_gc

    def failing_run() -> None:
        with paused_gc():
            with paused_gc():
                assert not gc.isenabled()
            assert not gc.isenabled()  # the inner pause leaves the outer one in force
            raise RuntimeError("a failed run")

    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        failing_run()
    assert gc.isenabled()


VALUEFLOW = Path(__file__).parent / "fixtures" / "valueflow"


def test_linking_on_two_processes_writes_what_one_process_writes(
    graph: Neo4jClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a repository whose value flow stays within its step budget, splitting the files
    between processes changes no edge or property (Django's does not: BENCHMARKS §2)."""
    from graphrag_code.ingest import link_pool

    build_graph(VALUEFLOW, graph, repo="pool", state_dir=tmp_path / "one",
                options=IndexOptions(link_workers=1))  # fmt: skip
    alone = dump(graph, "pool")
    GraphWriter(graph, "pool").delete_repository()
    monkeypatch.setattr(link_pool, "MIN_FILES_PER_WORKER", 1)
    build_graph(VALUEFLOW, graph, repo="pool", state_dir=tmp_path / "two",
                options=IndexOptions(link_workers=2))  # fmt: skip
    assert dump(graph, "pool") == alone
    assert any(rel[1] == "CALLS" and "via" in dict(rel[3]) for rel in alone["rels"])
    GraphWriter(graph, "pool").delete_repository()


def test_text_bounds_batches_of_nodes_and_changes_nothing_written(
    graph: Neo4jClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node batches stop at `NODE_BATCH_CHARS` of text (the driver holds several copies of a
    batch while encoding it): on the CREATE and on the MERGE path the graph is the same as
    with unbounded batches, and no batch of more than one row goes over the bound."""
    from graphrag_code.graph import client as client_module
    from graphrag_code.graph import writer as writer_module

    build_graph(SHOP, graph, repo="bounded", state_dir=tmp_path / "plain")
    plain = dump(graph, "bounded")
    GraphWriter(graph, "bounded").delete_repository()

    bound = 2_000
    monkeypatch.setattr(writer_module, "NODE_BATCH_CHARS", bound)
    batches: list[list[Any]] = []
    real_write = graph.write
    node_queries = {load_query("bulk/create_nodes")} | {
        load_query(name) for name in writer_module._NODE_QUERIES.values()
    }

    def spy(query: str, parameters: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        if query in node_queries and parameters is not None:
            batches.append(parameters["rows"])
        return real_write(query, parameters)

    monkeypatch.setattr(graph, "write", spy)
    build_graph(SHOP, graph, repo="bounded", state_dir=tmp_path / "create")  # CREATE path
    assert dump(graph, "bounded") == plain
    created = len(batches)
    build_graph(SHOP, graph, repo="bounded", state_dir=tmp_path / "merge")  # MERGE path
    assert dump(graph, "bounded") == plain
    assert created > 4  # more batches than the four node kinds
    assert len(batches) > 2 * 4
    assert all(len(rows) == 1 or client_module.text_length(rows) <= bound for rows in batches)
    GraphWriter(graph, "bounded").delete_repository()


def test_node_parts_built_ahead_of_the_server_are_bounded_and_change_nothing(
    graph: Neo4jClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node rows go to the background writer a part at a time: the graph is the one a
    single part writes, and the run builds at most `NODE_PARTS_QUEUED` parts ahead of the
    part the server is writing (the rows' text alive at once stays bounded)."""
    import threading
    import time

    from graphrag_code.ingest import pipeline

    build_graph(SHOP, graph, repo="parts", state_dir=tmp_path / "whole")
    whole = dump(graph, "parts")
    GraphWriter(graph, "parts").delete_repository()

    monkeypatch.setattr(pipeline, "NODE_PART", 1)  # every file a part of its own
    built: list[str] = []
    ahead: list[int] = []
    real_rows, real_create = pipeline.file_rows, GraphWriter.create_nodes
    main = threading.get_ident()

    def rows(repo: str, parsed: Any, ids: Any) -> Any:
        assert threading.get_ident() == main
        built.append(parsed.path)
        return real_rows(repo, parsed, ids)

    def create(self: GraphWriter, part: Any, stats: Any, progress: Any = None) -> None:
        time.sleep(0.05)  # a slow server: the run gets ahead if nothing holds it back
        ahead.append(len(built) - len(ahead) - 1)
        real_create(self, part, stats, progress)

    monkeypatch.setattr(pipeline, "file_rows", rows)
    monkeypatch.setattr(GraphWriter, "create_nodes", create)
    build_graph(SHOP, graph, repo="parts", state_dir=tmp_path / "parts")
    assert dump(graph, "parts") == whole
    assert len(ahead) == len(built) > pipeline.NODE_PARTS_QUEUED + 1
    assert max(ahead) <= pipeline.NODE_PARTS_QUEUED
    GraphWriter(graph, "parts").delete_repository()


def test_batches_are_cut_by_rows_and_by_text() -> None:
    from graphrag_code.graph.client import _chunks

    rows = [{"code": "x" * n} for n in (3, 3, 3, 10, 1)]
    assert [len(b) for b in _chunks(rows, 2)] == [2, 2, 1]
    # at most 6 characters: a row longer than the bound goes alone
    assert [len(b) for b in _chunks(rows, 10, max_chars=6)] == [2, 1, 1, 1]
    assert [len(b) for b in _chunks(rows, 2, max_chars=100)] == [2, 2, 1]
    assert list(_chunks([], 2, max_chars=5)) == []


def test_written_batches_are_not_kept_alive_while_the_collector_is_paused(
    graph: Neo4jClient,
) -> None:
    """The driver keeps each query's parameters in reference cycles; with the collector
    paused (as indexing runs) a batch's rows must still go when it is written."""
    import gc

    from graphrag_code.ingest.state import paused_gc

    rows = [{"id": f"row-{i}", "text": "x" * 100} for i in range(500)]
    # garbage earlier tests left for the collector is not this test's: queries that pass
    # rows without `write_batches` (the cross-repository stage's, vectors') leave the
    # driver's cycles holding them until the next automatic collection
    gc.collect()
    with paused_gc():
        written = graph.write_batches(
            "UNWIND $rows AS row RETURN count(row) AS n", rows, batch_size=50
        )
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            kept = [
                o for o in gc.garbage if isinstance(o, dict) and isinstance(o.get("rows"), list)
            ]
            assert kept  # the driver's cycles are there (else this test checks nothing) ...
            assert all(not o["rows"] for o in kept)  # ... but hold no rows
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert written == 500
