"""Rust indexed into the real Neo4j, once for the module: the report, the stored edges as
linked offline, callers and callees of a method whose impl sits in another file than its
struct, search by a doc comment, `tests-for` and `diff` on `rust_shop` (a git repository of
one commit); last (it wipes the database), an incremental run that adds an impl in a new file
and ends where a clean index ends."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.ingest.report import IngestReport
from graphrag_code.runtime.git import git as run_git
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe
from .linking_helpers import assert_stored_as_linked, link_folder
from .relinking import assert_same_as_clean_index, write_file

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end

SHOP = Path(__file__).parent / "fixtures" / "rust_shop"
REPO = "rustshop"
Indexed = tuple[CodeGraph, IngestReport, Path]


@pytest.fixture(scope="module")
def indexed(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("rust") / REPO
    shutil.copytree(SHOP, root)
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-q", "-m", "base")):
        run_git(root, *args, config={"user.name": "t", "user.email": "t@example.com"})
    wipe(session_client)
    drop_search_indexes(session_client)
    settings = Settings(embedder="hashing", cache_dir=tmp_path_factory.mktemp("cache"))
    graph = CodeGraph(settings, client=session_client, embedder=HashingEmbedder())
    yield graph, graph.index(root, REPO), root
    drop_search_indexes(session_client)


def test_the_index_stores_the_edges_linked_offline(indexed: Indexed) -> None:
    graph, report, root = indexed
    assert report.languages["rust"].files == 5
    assert report.tests == 2
    assert_stored_as_linked(graph.client, link_folder(root, repo=REPO))


def test_callers_and_callees_across_files(indexed: Indexed) -> None:
    graph, _, _ = indexed
    callers = graph.callers("crate::model::order::Order::total", repo=REPO)
    assert callers.subject.location.path == "src/pricing.rs"
    assert {c.qualified_name for c in callers.certain} == {
        "crate::Shop::total", "crate::model::order::Order::Priced::price",
    }  # fmt: skip
    callees = {c.qualified_name for c in graph.callees("crate::checkout", repo=REPO).certain}
    assert callees == {
        "crate::model::order::Order::new", "crate::Priced::with_tax", "crate::Shop::total",
        "crate::helper",
    }  # fmt: skip


def test_search_finds_a_trait_by_its_doc_comment(indexed: Indexed) -> None:
    graph, _, _ = indexed
    hits = graph.search("something with a price", repo=REPO, k=5).hits
    assert "crate::Priced" in {hit.qualified_name for hit in hits}


def test_tests_for_a_function_reached_from_unit_and_integration_tests(indexed: Indexed) -> None:
    graph, _, _ = indexed
    tests = {t.qualified_name for t in graph.tests_for("crate::checkout", repo=REPO).tests}
    assert tests == {
        "crate::tests::checkout_adds", "crate::tests::integration::opens_and_checks_out",
    }  # fmt: skip


def test_diff_of_a_method_whose_impl_sits_in_another_file(indexed: Indexed) -> None:
    graph, _, root = indexed
    pricing = root / "src" / "pricing.rs"
    before = pricing.read_text()
    pricing.write_text(
        before.replace("as u64 + self.first_amount()", "as u64 + self.first_amount() * 1")
    )
    try:
        impact = graph.diff(path=root, repo=REPO)
    finally:
        pricing.write_text(before)
    changes = {c.qualified_name: (c.change, c.aspects) for c in impact.changes}
    assert changes == {"crate::model::order::Order::total": ("modified", ("body",))}
    assert {"crate::Shop::total", "crate::model::order::Order::Priced::price"} <= {
        a.qualified_name for a in impact.affected
    }
    assert "crate::tests::checkout_adds" in {t.qualified_name for t in impact.tests}


def test_incremental_rust_run_equals_a_clean_index(neo4j: Neo4jClient, tmp_path: Path) -> None:
    """An impl appearing in a new file for a struct of another: the file calling its method
    is linked again."""
    work = tmp_path / "work"
    write_file(work, "Cargo.toml", '[package]\nname = "inc"\n')
    write_file(work, "src/lib.rs", "pub mod model;\nmod ops;\n")
    write_file(work, "src/model.rs", "pub struct Order;\n")
    write_file(
        work, "src/ops.rs",
        "use crate::model::Order;\nfn run(o: &Order) {\n    o.total();\n}\n",
    )  # fmt: skip
    assert build_graph(work, neo4j, repo="inc", state_dir=tmp_path / "state").mode != "incremental"
    write_file(work, "src/lib.rs", "pub mod model;\nmod ops;\nmod totals;\n")
    write_file(
        work, "src/totals.rs",
        "use crate::model::Order;\nimpl Order {\n    pub fn total(&self) -> u32 { 0 }\n}\n",
    )  # fmt: skip
    report = build_graph(work, neo4j, repo="inc", state_dir=tmp_path / "state")
    assert report.mode == "incremental"
    assert_same_as_clean_index(neo4j, work, tmp_path, "inc")
