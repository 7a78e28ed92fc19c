"""Regression tests of issue 13 that search the shop fixture: a crafted question must not
stall other searches, `path X X`, questions with invalid Unicode (see `test_robustness.py`)."""

from __future__ import annotations

import threading
import time

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.retrieval.question import clean_question

from .shop_graph import REPO, shop_graph_fixture  # noqa: F401 - provides `shop_graph`


def test_hostile_question_does_not_stall_other_searches(shop_graph: CodeGraph) -> None:
    """In-process, the quadratic regex held the GIL and stalled other threads for 35 s."""
    shop_graph.search("where are orders saved?", repo=REPO)  # warm: the query plan is cached
    hostile = threading.Thread(target=shop_graph.search, args=("a-b/" * 25_000,))
    hostile.start()
    started = time.perf_counter()
    shop_graph.search("what calls save?", repo=REPO)
    hostile.join(timeout=60)
    assert time.perf_counter() - started < 10.0
    assert not hostile.is_alive()


def test_path_from_a_symbol_to_itself_is_that_symbol(shop_graph: CodeGraph) -> None:
    result = shop_graph.path("SqliteStorage.save", "SqliteStorage.save", repo=REPO)
    assert result.found
    assert [step.qualified_name for step in result.steps] == [
        "shop.storage.sqlite.SqliteStorage.save"
    ]
    assert result.steps[0].edge is None


@pytest.mark.parametrize(
    "question",
    ["caf\udce9 orders", "\ud800 save", b"caf\xc3\xa9".decode("utf-8", "surrogateescape")],
    ids=["latin1-byte", "lone-surrogate", "escaped-utf8"],
)
def test_questions_with_invalid_unicode_are_answered(shop_graph: CodeGraph, question: str) -> None:
    assert clean_question(question).encode("utf-8")
    result = shop_graph.search(question, repo=REPO)
    assert isinstance(result.hits, list)
