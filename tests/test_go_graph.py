"""Go beside Python in one repository, indexed once into the real Neo4j: the report, the
stored edges, relations, search, `tests-for` and `diff` on the Go fixture (`go_shop`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.report import IngestReport
from graphrag_code.runtime.git import git as run_git
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe
from .linking_helpers import assert_stored_as_linked, link_folder
from .test_ingest import assert_equals_a_clean_index, dump

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end

SHOP = Path(__file__).parent / "fixtures" / "go_shop"
REPO = "goshop"
PYTHON_TOOL = '''"""Reports on orders."""


def summarise(totals: list[int]) -> int:
    """Sum the totals of the orders."""
    return sum(totals)


def main() -> None:
    print(summarise([1, 2]))
'''
TS_WIDGET = """/** Formats an order total for the web page. */
export function formatTotal(cents: number): string {
  return dollars(cents).toFixed(2);
}

function dollars(cents: number): number {
  return cents / 100;
}
"""


def _git(root: Path, *args: str) -> None:
    run_git(root, *args, config={"user.name": "t", "user.email": "t@example.com"})


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Go fixture with a Python tool and a TypeScript file beside it, in a git repository
    of one commit."""
    root = tmp_path_factory.mktemp("go") / REPO
    shutil.copytree(SHOP, root)
    (root / "tools").mkdir()
    (root / "tools" / "report.py").write_text(PYTHON_TOOL)
    (root / "web").mkdir()
    (root / "web" / "format.ts").write_text(TS_WIDGET)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    return root


@pytest.fixture(scope="module")
def indexed(
    session_client: Neo4jClient, shop: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[CodeGraph, IngestReport]]:
    wipe(session_client)
    drop_search_indexes(session_client)
    settings = Settings(embedder="hashing", cache_dir=tmp_path_factory.mktemp("cache"))
    graph = CodeGraph(settings, client=session_client, embedder=HashingEmbedder())
    report = graph.index(shop, REPO)
    yield graph, report
    drop_search_indexes(session_client)


def test_one_index_reads_go_python_and_typescript_and_stores_the_offline_edges(
    indexed: tuple[CodeGraph, IngestReport], shop: Path
) -> None:
    graph, report = indexed
    assert report.languages["go"].files == 4
    assert report.languages["python"].files == 1
    assert report.languages["typescript"].files == 1
    assert report.languages["go"].edges["CALLS/inferred"] >= 8
    assert report.tests == 2  # TestTotal, BenchmarkAdd
    assert_stored_as_linked(graph.client, link_folder(shop, repo=REPO))


def test_callers_and_callees_of_go_symbols(indexed: tuple[CodeGraph, IngestReport]) -> None:
    graph, _ = indexed
    callers = graph.callers("Order.Total", repo=REPO)
    assert callers.subject.qualified_name == "internal/order.Order.Total"
    assert callers.subject.location.path == "internal/order/total.go"
    assert {c.qualified_name for c in callers.certain} == {
        "cmd/shop.main", "internal/order.Order.Price", "internal/order.TestTotal",
    }  # fmt: skip
    callees = {c.qualified_name for c in graph.callees("cmd/shop.main", repo=REPO).certain}
    assert {"internal/order.NewOrder", "internal/order.Order.Add", "fmt.Println"} <= callees


def test_search_finds_a_go_function(indexed: tuple[CodeGraph, IngestReport]) -> None:
    graph, _ = indexed
    hits = graph.search("sum the prices of the order's items", repo=REPO, k=5).hits
    assert "internal/order.Order.Total" in {hit.qualified_name for hit in hits}


def test_tests_for_a_go_method(indexed: tuple[CodeGraph, IngestReport]) -> None:
    graph, _ = indexed
    tests = {t.runner_id for t in graph.tests_for("internal/order.Order.Add", repo=REPO).tests}
    assert tests == {
        "go test ./internal/order -run '^TestTotal$'",
        "go test ./internal/order -run '^$' -bench '^BenchmarkAdd$'",
    }


def test_diff_of_a_method_in_another_file_than_its_type(
    indexed: tuple[CodeGraph, IngestReport], shop: Path
) -> None:
    graph, _ = indexed
    total = shop / "internal" / "order" / "total.go"
    total.write_text(total.read_text().replace("sum += item.Price", "sum += item.Price * 1"))
    impact = graph.diff(path=shop, repo=REPO)
    changes = {c.qualified_name: (c.change, c.aspects) for c in impact.changes}
    assert changes == {"internal/order.Order.Total": ("modified", ("body",))}
    assert {"cmd/shop.main", "internal/order.Order.Price"} <= {
        a.qualified_name for a in impact.affected
    }
    assert "go test ./internal/order -run '^TestTotal$'" in {t.runner_id for t in impact.tests}


def test_a_method_added_in_a_new_file_of_the_package_links_incrementally_as_clean(
    indexed: tuple[CodeGraph, IngestReport], shop: Path, tmp_path: Path
) -> None:
    graph, _ = indexed
    main = shop / "cmd" / "shop" / "main.go"
    main.write_text(main.read_text().replace("\treport(o)\n", "\treport(o)\n\t_ = o.Count()\n"))
    graph.index(shop, REPO, embed=False)  # `o.Count()` calls nothing yet
    callees = {c.qualified_name for c in graph.callees("cmd/shop.main", repo=REPO).certain}
    assert "internal/order.Order.Count" not in callees
    (shop / "internal" / "order" / "count.go").write_text(
        "package order\n\n// Count says how many items.\nfunc (o *Order) Count() int {\n"
        "\treturn len(o.Items)\n}\n"
    )
    graph.index(shop, REPO, embed=False)  # main.go unchanged, linked again
    callees = {c.qualified_name for c in graph.callees("cmd/shop.main", repo=REPO).certain}
    assert "internal/order.Order.Count" in callees
    incremental = dump(graph.client, REPO)
    for _labels, properties in incremental["nodes"].values():  # the clean index embeds none
        for embedded in ("embedding", "embedded_hash", "embedded_model"):
            properties.pop(embedded, None)
    assert_equals_a_clean_index(graph.client, shop, REPO, incremental, tmp_path)
