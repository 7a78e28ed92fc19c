"""The one Lucene escaping rule, shared by the code search and the harness's document search."""

from __future__ import annotations

import pytest

from graphrag_code.text import escape_lucene


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("plain", "plain"),
        ("f(x)", r"f\(x\)"),
        ('+-!(){}[]^"~*?:\\/', r"\+\-\!\(\)\{\}\[\]\^\"\~\*\?\:\\\/"),
        ("a&&b||c", r"a\&\&b\|\|c"),
        ("OR", '"OR"'),  # a bare operator word becomes a plain term
        ("TO", '"TO"'),
        ("or", "or"),  # lowercase words are not operators
        ("ORDER", "ORDER"),
    ],
)
def test_escape_lucene(term: str, expected: str) -> None:
    assert escape_lucene(term) == expected
