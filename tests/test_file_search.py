"""File- and package-level search: the pure ranking by a hand-computed example, and
`search(unit="file")` against the shop fixture in a real Neo4j."""

from __future__ import annotations

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.retrieval.units import FileRanking, Unit, package_of, rank_units, unit_key

from .shop_graph import REPO, shop_graph_fixture  # noqa: F401 - provides `shop_graph`


def _entry(node: str, path: str) -> dict[str, str]:
    return {"id": node, "path": path, "repo": "r"}


LEGS = {
    # a.py holds the best hit of each leg; b.py three lesser hits of the text leg
    "vector": [_entry("a.f", "a.py"), _entry("c.h", "pkg/c.py"), _entry("b.g", "b.py")],
    "text": [
        _entry("b.g", "b.py"),
        _entry("b.g2", "b.py"),
        _entry("a.f", "a.py"),
        _entry("b.g3", "b.py"),
    ],
}


def test_rank_units_matches_a_hand_computed_example() -> None:
    ranked = rank_units(LEGS, {"vector": 1.0, "text": 1.0}, unit_key(Unit.FILE), decay=0.5, rrf_k=1)
    scores = {unit.key[1]: unit.score for unit in ranked}
    # a.py: vector 1/(1+1); text 1/(1+3)
    assert scores["a.py"] == pytest.approx(1 / 2 + 1 / 4)
    # b.py: vector 1/(1+3); text 1/2 + 0.5/3 + 0.25/5
    assert scores["b.py"] == pytest.approx(1 / 4 + 1 / 2 + 0.5 / 3 + 0.25 / 5)
    assert scores["pkg/c.py"] == pytest.approx(1 / 3)
    assert [unit.key[1] for unit in ranked] == ["b.py", "a.py", "pkg/c.py"]
    b = ranked[0]
    assert b.ranks == {"vector": 3, "text": 1}
    assert b.members == ("b.g", "b.g2", "b.g3")  # best first, each once


def test_decay_zero_counts_only_the_best_hit_per_leg() -> None:
    ranked = rank_units(LEGS, {}, unit_key(Unit.FILE), decay=0.0, rrf_k=1)
    scores = {unit.key[1]: unit.score for unit in ranked}
    assert scores["b.py"] == pytest.approx(1 / 4 + 1 / 2)
    assert scores["a.py"] == pytest.approx(1 / 2 + 1 / 4)
    assert [unit.key[1] for unit in ranked][:2] == ["a.py", "b.py"]  # a tie breaks by key


def test_packages_group_files_by_folder_and_weights_apply() -> None:
    ranked = rank_units(LEGS, {"vector": 1.0, "text": 0.0}, unit_key(Unit.PACKAGE), rrf_k=1)
    assert [unit.key[1] for unit in ranked] == [".", "pkg"]
    assert package_of("src/shop/api.py") == "src/shop"
    assert package_of("setup.py") == "."


def test_entries_without_a_path_do_not_vote() -> None:
    legs = {"text": [{"id": "x", "path": None, "repo": "r"}, _entry("a.f", "a.py")]}
    assert [u.key for u in rank_units(legs, {}, unit_key(Unit.FILE))] == [("r", "a.py")]


def test_file_ranking_validates() -> None:
    with pytest.raises(InvalidArgumentError, match="decay"):
        FileRanking(decay=1.5)
    with pytest.raises(InvalidArgumentError, match="depth"):
        FileRanking(depth=0)


@pytest.mark.integration
def test_search_ranks_files_by_their_symbols(shop_graph: CodeGraph) -> None:
    result = shop_graph.search(
        "save an order record in the sqlite database", repo=REPO, k=5, unit="file"
    )
    paths = [hit.path for hit in result.hits]
    assert len(paths) == len(set(paths)), "each file once"
    assert "src/shop/storage/sqlite.py" in paths[:3]
    top = result.hits[0]
    assert top.kind == "File"
    assert top.id.startswith(f"{REPO}:shop.")  # the module node's id
    assert top.explain is not None
    assert "hits" in top.explain
    assert top.ranks, "the legs that found it"


@pytest.mark.integration
def test_unit_legs_are_the_evidence_search_ranks_files_by(shop_graph: CodeGraph) -> None:
    question = "save an order record in the sqlite database"
    files = FileRanking()
    legs = shop_graph.searcher.unit_legs(question, repo=REPO, files=files)
    assert set(legs) == {"vector", "text", "graph", "file_text"}
    assert all(len(entries) <= files.depth for entries in legs.values())
    assert any(e["path"] == "src/shop/storage/sqlite.py" for e in legs["text"])
    ranked = rank_units(
        legs, dict(files.weights), unit_key(Unit.FILE), decay=files.decay, rrf_k=files.rrf_k
    )
    result = shop_graph.search(question, repo=REPO, k=5, unit="file", files=files)
    assert [u.key[1] for u in ranked[:5]] == [hit.path for hit in result.hits]
    assert [u.score for u in ranked[:5]] == [hit.score for hit in result.hits]
    with pytest.raises(InvalidArgumentError, match="files or packages"):
        shop_graph.searcher.unit_legs(question, repo=REPO, unit=Unit.SYMBOL)


@pytest.mark.integration
def test_search_ranks_packages(shop_graph: CodeGraph) -> None:
    result = shop_graph.search("sqlite storage backend", repo=REPO, k=3, unit=Unit.PACKAGE)
    folders = [hit.path for hit in result.hits]
    assert folders[0] == "src/shop/storage"
    assert all(hit.kind == "Package" for hit in result.hits)


@pytest.mark.integration
def test_file_search_with_one_leg(shop_graph: CodeGraph) -> None:
    from graphrag_code.retrieval.search import SearchOptions

    result = shop_graph.search(
        "sqlite", repo=REPO, options=SearchOptions(k=3, legs=("text",)), unit="file"
    )
    assert result.hits
    assert all(set(hit.ranks) == {"text"} for hit in result.hits)
