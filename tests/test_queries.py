"""The Cypher loader and the one identifier helper."""

from __future__ import annotations

import pytest

from graphrag_code.errors import QueryFileError
from graphrag_code.graph.queries import (
    hop_bound,
    load_query,
    query_names,
    quote_identifier,
    split_statements,
)


def test_every_shipped_query_loads() -> None:
    names = query_names()
    assert "schema/create" in names
    for name in names:
        assert load_query(name).strip()


def test_unknown_or_malicious_query_names_are_refused() -> None:
    with pytest.raises(QueryFileError):
        load_query("no_such_query")
    with pytest.raises(QueryFileError):
        load_query("../pyproject")


def test_split_statements_drops_comments_and_keeps_multiline() -> None:
    text = "// header\nCREATE (a)\nRETURN a;\n// c\nMATCH (n) RETURN n;\n"
    assert split_statements(text) == ["CREATE (a)\nRETURN a", "MATCH (n) RETURN n"]


@pytest.mark.parametrize("name", ["Code", "CALLS", "_private", "a1"])
def test_quote_identifier_accepts_plain_names(name: str) -> None:
    assert quote_identifier(name) == f"`{name}`"


@pytest.mark.parametrize("name", ["", "1abc", "a b", "a`b", "Code) DETACH DELETE (n", "é"])
def test_quote_identifier_rejects_everything_else(name: str) -> None:
    with pytest.raises(QueryFileError):
        quote_identifier(name)


@pytest.mark.parametrize("bad", [0, 7, -1, True, 2.0, "3"])
def test_hop_bound_rejects_out_of_range(bad: object) -> None:
    with pytest.raises(QueryFileError):
        hop_bound(bad)  # type: ignore[arg-type]


def test_hop_bound_accepts_range() -> None:
    assert [hop_bound(n) for n in range(1, 7)] == list(range(1, 7))
    assert hop_bound(0, minimum=0, maximum=3) == 0  # the search's graph leg: seeds only
    with pytest.raises(QueryFileError):
        hop_bound(4, minimum=0, maximum=3)
