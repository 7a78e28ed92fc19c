"""Java indexed into the real Neo4j, once for the module: the report, the stored edges as
linked offline, callers and callees of an overload (by its name with parameters too), search,
`tests-for` and `diff` on `java_shop`; last (it wipes the database), an incremental run that
ends where a clean index ends."""

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

SHOP = Path(__file__).parent / "fixtures" / "java_shop"
REPO = "javashop"
Indexed = tuple[CodeGraph, IngestReport, Path]


@pytest.fixture(scope="module")
def indexed(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("java") / REPO
    shutil.copytree(SHOP, root)
    config = {"user.name": "t", "user.email": "t@example.com"}
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-q", "-m", "base")):
        run_git(root, *args, config=config)
    wipe(session_client)
    drop_search_indexes(session_client)
    settings = Settings(embedder="hashing", cache_dir=tmp_path_factory.mktemp("cache"))
    graph = CodeGraph(settings, client=session_client, embedder=HashingEmbedder())
    yield graph, graph.index(root, REPO), root
    drop_search_indexes(session_client)


def test_the_index_stores_the_edges_linked_offline(indexed: Indexed) -> None:
    graph, report, root = indexed
    assert report.languages["java"].files == 6
    assert report.tests == 1
    assert_stored_as_linked(graph.client, link_folder(root, repo=REPO))


def test_callers_and_callees_of_an_overload(indexed: Indexed) -> None:
    graph, _, _ = indexed
    callers = graph.callers("com.shop.model.Cart.add(Item)", repo=REPO)
    assert callers.subject.qualified_name == "com.shop.model.Cart.add(Item)"
    assert callers.subject.location.path == "src/main/java/com/shop/model/Cart.java"
    assert {c.qualified_name for c in callers.certain} == {
        "com.shop.model.Cart.add(String,long)", "com.shop.service.Checkout.main",
    }  # fmt: skip
    for name in ("Cart.add(Item)", "add(Item)"):  # a suffix or short name with parameters
        assert (
            graph.callers(name, repo=REPO).subject.qualified_name == callers.subject.qualified_name
        )
    callees = graph.callees("Checkout.pay", repo=REPO, possible=True)
    assert {c.qualified_name for c in callees.certain} == {"com.shop.service.Pricing.price"}
    assert {(c.qualified_name, c.resolution) for c in callees.possible} == {
        ("com.shop.service.DiscountPricing.price", "dispatch")
    }


def test_search_finds_a_method_by_its_javadoc(indexed: Indexed) -> None:
    graph, _, _ = indexed
    hits = graph.search("adds an item by name and price", repo=REPO, k=5).hits
    assert "com.shop.model.Cart.add(String,long)" in {hit.qualified_name for hit in hits}


def test_tests_for_a_method_reached_from_a_junit_test(indexed: Indexed) -> None:
    """The test's runner id is the command its build file says (`pom.xml`: Maven), stored on
    its node by the index."""
    graph, _, _ = indexed
    tests = {
        (t.qualified_name, t.runner_id) for t in graph.tests_for("Checkout.pay", repo=REPO).tests
    }
    command = "mvn test -Dtest='CheckoutTest#halvesTheTotal'"
    assert tests == {("com.shop.service.CheckoutTest.halvesTheTotal", command)}
    stored = graph.client.read(
        "MATCH (t:Code {repo: $repo, test_role: 'test'}) RETURN t.test_runner AS runner",
        {"repo": REPO},
    )
    assert [row["runner"] for row in stored] == [command]


def test_diff_of_an_override_reaches_the_interface_call_and_its_test(indexed: Indexed) -> None:
    graph, _, root = indexed
    pricing = root / "src/main/java/com/shop/service/DiscountPricing.java"
    pricing.write_text(pricing.read_text().replace("percent / 100", "percent / 100 + 0"))
    impact = graph.diff(path=root, repo=REPO)
    changes = {c.qualified_name: (c.change, c.aspects) for c in impact.changes}
    assert changes == {"com.shop.service.DiscountPricing.price": ("modified", ("body",))}
    pay = [a for a in impact.affected if a.qualified_name == "com.shop.service.Checkout.pay"]
    assert [(a.certain, a.resolution) for a in pay] == [(False, "dispatch")]
    assert "com.shop.service.CheckoutTest.halvesTheTotal" in {
        t.qualified_name for t in impact.tests
    }


def test_incremental_java_run_equals_a_clean_index(neo4j: Neo4jClient, tmp_path: Path) -> None:
    """A class appearing in the package that a call named, an overload renaming the method
    another file calls, a class starting to implement the interface a call goes through
    (its `dispatch` edge): the files that read them are linked again."""
    work = tmp_path / "work"
    root = "src/main/java/p/"
    write_file(work, root + "Base.java", "package p;\nclass Base {\n  void m(Object o) {}\n}\n")
    write_file(
        work, root + "Use.java",
        "package p;\nclass Use {\n  void run() {\n    new Base().m(\"s\");\n  }\n}\n",
    )  # fmt: skip
    # Later names nothing of the repository but a class that does not exist yet
    write_file(
        work, root + "Later.java", "package p;\nclass Later {\n  void run() { Helper.go(); }\n}\n"
    )
    # Draw calls an interface method nothing implements yet; Box starts implementing it
    write_file(work, root + "Shape.java", "package p;\ninterface Shape {\n  void draw();\n}\n")
    write_file(
        work, root + "Draw.java", "package p;\nclass Draw {\n  void run(Shape s) { s.draw(); }\n}\n"
    )
    write_file(work, root + "Box.java", "package p;\nclass Box {\n  public void draw() {}\n}\n")
    assert build_graph(work, neo4j, repo="inc", state_dir=tmp_path / "state").mode != "incremental"
    write_file(
        work, root + "Box.java",
        "package p;\nclass Box implements Shape {\n  public void draw() {}\n}\n",
    )  # fmt: skip
    write_file(
        work, root + "Base.java",
        "package p;\nclass Base {\n  void m(Object o) {}\n  void m(String s) {}\n}\n",
    )  # fmt: skip
    write_file(work, root + "Helper.java", "package p;\nclass Helper {\n  static void go() {}\n}\n")
    report = build_graph(work, neo4j, repo="inc", state_dir=tmp_path / "state")
    assert report.mode == "incremental"
    assert_same_as_clean_index(neo4j, work, tmp_path, "inc")
