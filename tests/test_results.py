"""Typed public results: one `Location` for every result that points into a repository, the
centrality prior scaled by `rrf_k`, and the CLI's tables and `--json` over the shop graph."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graphrag_code import Location
from graphrag_code.cli.main import main as cli_main
from graphrag_code.codegraph import CodeGraph
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.settings import Settings

from .shop_graph import REPO, shop_graph_fixture  # noqa: F401 - provides `shop_graph`


# -- pure ---------------------------------------------------------------------------------------
def test_location_is_written_as_path_start_end() -> None:
    assert str(Location("shop/api.py", 12, 30)) == "shop/api.py:12-30"
    assert str(Location("shop/api.py", 12)) == "shop/api.py:12"
    assert str(Location("shop/api.py")) == "shop/api.py"
    # a format spec pads it like the string it is written as
    assert f"{Location('a.py', 1, 2):>10s}|" == "  a.py:1-2|"
    assert Location("a.py", 1, 2) == Location("a.py", 1, 2)
    with pytest.raises(AttributeError):
        Location("a.py").path = "b.py"  # type: ignore[misc]


# -- against Neo4j --------------------------------------------------------------------------------
def test_centrality_prior_is_one_rrf_rank_step_of_rrf_k(shop_graph: CodeGraph) -> None:
    """The prior adds at most `weight / (rrf_k + 1)`, the RRF score of a first rank: to the most
    central candidate, and nothing to the least central one."""
    question = "How is an order saved to the database?"
    # the fused scores themselves: the reranker (on by default) reorders the hits and gives
    # each the fused score of its new place, which says nothing about the prior
    settings = Settings(embedder="hashing", rerank=False)
    with CodeGraph(settings, client=shop_graph.client, embedder=shop_graph.embedder) as fused:
        for rrf_k in (5.0, 60.0):
            base = SearchOptions(k=50, rrf_k=rrf_k)
            plain = {h.id: h.score for h in fused.search(question, repo=REPO, options=base).hits}
            boosted = fused.search(
                question, repo=REPO, options=SearchOptions(k=50, rrf_k=rrf_k, centrality_prior=1.0)
            ).hits
            assert {hit.id for hit in boosted} == set(plain)
            boosts = {hit.id: hit.score - plain[hit.id] for hit in boosted}
            assert max(boosts.values()) == pytest.approx(1 / (rrf_k + 1))
            assert min(boosts.values()) == pytest.approx(0.0)
            most_central = max(boosted, key=lambda hit: hit.pagerank)
            assert boosts[most_central.id] == pytest.approx(1 / (rrf_k + 1))


def test_hits_carry_a_location(shop_graph: CodeGraph) -> None:
    hits = shop_graph.search("Where is OrderRepository defined?", repo=REPO).hits
    hit = next(h for h in hits if h.qualified_name == "shop.repositories.OrderRepository")
    assert hit.location.path == "src/shop/repositories.py"
    assert hit.location.start_line is not None
    assert hit.location.end_line is not None
    assert hit.location.start_line < hit.location.end_line
    assert (hit.path, hit.start_line, hit.end_line) == (
        hit.location.path,
        hit.location.start_line,
        hit.location.end_line,
    )


def test_related_externals_have_no_location(shop_graph: CodeGraph) -> None:
    result = shop_graph.callees("shop.cli.main", repo=REPO)
    external = next(r for r in result.certain if r.qualified_name == "requests.post")
    assert external.external
    assert external.location is None
    assert external.kind is None
    internal = next(r for r in result.certain if not r.external)
    assert internal.location is not None
    assert internal.location.path.startswith("src/shop/")


# -- the CLI --------------------------------------------------------------------------------------
@pytest.fixture
def cli(shop_graph: CodeGraph, cli_env: None, capsys: pytest.CaptureFixture[str]) -> Any:
    """Run `graphrag-code ARGS` against the shop graph; returns (exit code, stdout)."""

    def run(*args: str) -> tuple[int, str]:
        capsys.readouterr()
        code = cli_main(list(args))
        return code, capsys.readouterr().out

    return run


def _json(run: Any, *args: str) -> Any:
    code, out = run(*args, "--json")
    assert code == 0, out
    return json.loads(out)


def test_cli_search_shows_locations(cli: Any, shop_graph: CodeGraph) -> None:
    question = "Where is OrderRepository defined?"
    data = _json(cli, "search", question, "--repo", REPO)
    [hit] = [h for h in data["hits"] if h["qualified_name"] == "shop.repositories.OrderRepository"]
    location = Location(**hit["location"])
    assert location.path == "src/shop/repositories.py"
    code, out = cli("search", question, "--repo", REPO)
    assert code == 0
    assert str(location) in out


def test_cli_relations_show_locations_and_typed_candidates(cli: Any) -> None:
    data = _json(cli, "callers", "SqliteStorage.save", "--repo", REPO, "--depth", "3")
    assert data["subject"]["location"]["path"] == "src/shop/storage/sqlite.py"
    add = next(r for r in data["certain"] if r["qualified_name"].endswith("OrderRepository.add"))
    assert add["location"]["path"] == "src/shop/repositories.py"
    assert [c["qualified_name"] for c in data["unresolved_candidates"]] == ["shop.cli.main"]
    assert data["unresolved_candidates"][0]["location"]["path"] == "src/shop/cli.py"
    code, out = cli("callers", "SqliteStorage.save", "--repo", REPO, "--depth", "3")
    assert code == 0
    assert str(Location(**add["location"])) in out
    assert "might call it: shop.cli.main" in out

    data = _json(cli, "callees", "shop.cli.main", "--repo", REPO)
    post = next(r for r in data["certain"] if r["qualified_name"] == "requests.post")
    assert post["location"] is None
    code, out = cli("callees", "shop.cli.main", "--repo", REPO)
    assert "(external)" in out


def test_cli_path_prints_steps_with_their_edges(cli: Any) -> None:
    args = ("path", "create_order_endpoint", "write_audit_log", "--repo", REPO)
    data = _json(cli, *args)
    steps = data["steps"]
    assert steps[0]["qualified_name"] == "shop.api.create_order_endpoint"
    assert steps[0]["edge"] is None
    assert [step["edge"] for step in steps[1:]] == ["CALLS"] * (len(steps) - 1)
    code, out = cli(*args)
    assert code == 0
    last = steps[-1]
    assert f"{last['qualified_name']}  {Location(**last['location'])}" in out
    assert f"└─CALLS ({steps[1]['resolution']})─▶" in out


def test_cli_entry_points(cli: Any) -> None:
    data = _json(cli, "entry-points", "--repo", REPO)
    main = next(p for p in data["roots"] if p["qualified_name"] == "shop.cli.main")
    assert main["location"]["path"] == "src/shop/cli.py"
    assert data["central"]
    assert isinstance(data["central"][0]["pagerank"], float)
    code, out = cli("entry-points", "--repo", REPO)
    assert code == 0
    assert str(Location(**main["location"])) in out


def test_cli_context_items_carry_locations(cli: Any) -> None:
    data = _json(cli, "context", "How is an order saved to the database?", "--repo", REPO)
    assert data["items"]
    for item in data["items"]:
        assert item["text"].startswith(f"### {Location(**item['location'])} — ")


def test_cli_search_files_ranks_each_file_once(cli: Any) -> None:
    question = "save an order record in the sqlite database"
    data = _json(cli, "search", question, "--repo", REPO, "--files", "-k", "4")
    paths = [hit["location"]["path"] for hit in data["hits"]]
    assert len(paths) == len(set(paths)) <= 4
    assert "src/shop/storage/sqlite.py" in paths
    assert {hit["kind"] for hit in data["hits"]} == {"File"}
    assert any("file_text" in hit["ranks"] for hit in data["hits"]), "the whole-file leg ran"
    code, out = cli("search", question, "--repo", REPO, "--files")
    assert code == 0
    assert "whole file" in out  # the whole-file leg's column
    code, out = cli("search", question, "--repo", REPO, "--unit", "package")
    assert code == 0
    assert "src/shop/storage" in out
    assert "package" in out  # the first column names the unit
