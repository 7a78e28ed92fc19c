"""Hybrid document search: both legs in one Cypher round trip, fused in Python with RRF.

The full-text leg gets a Lucene query of the text's words, each escaped with the product's
`escape_lucene`, so no input can raise a parse error; the vector leg gets the query's
embedding.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphrag_code.errors import ConfigurationError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.retrieval.fusion import rrf
from graphrag_code.text import escape_lucene

from .queries import load_query

__all__ = [
    "FULLTEXT",
    "VECTOR",
    "FusedHit",
    "LegHit",
    "Legs",
    "fuse",
    "lucene_query",
    "search_legs",
]

FULLTEXT = "fulltext"
VECTOR = "vector"

_FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_TERMS = 256
"""Lucene refuses queries of more than 1,024 clauses; a multifield index doubles each term."""


def lucene_query(text: str, *, field_boosts: Mapping[str, float] | None = None) -> str | None:
    r"""A Lucene query that matches any of the words of `text`; None when there is no word.

    Without `field_boosts`, unprefixed terms search every field of the index. With them,
    each field gets the same terms and its boost: ``{"title": 2, "text": 1}`` gives
    ``title:(a b)^2 text:(a b)^1``.

        >>> print(lucene_query('foo) OR (bar: "x"'))
        foo\) "OR" \(bar\: \"x\"
    """
    # Words as typed (the code search lowercases its terms first): the analyzers lowercase
    # anyway, `escape_lucene` quotes a bare AND/OR/NOT/TO, and the run logs keep the text.
    words = [escape_lucene(word) for word in text.split()][:MAX_TERMS]
    if not words:
        return None
    terms = " ".join(words)
    if not field_boosts:
        return terms
    clauses = []
    for field, boost in field_boosts.items():
        if not _FIELD.match(field):
            raise ConfigurationError(f"invalid full-text field name {field!r}")
        if boost <= 0:
            raise ConfigurationError(f"boost of field {field!r} must be positive, got {boost}")
        clauses.append(f"{field}:({terms})^{boost:g}")
    return " ".join(clauses)


@dataclass(frozen=True)
class LegHit:
    """One hit of one leg, with the index's own score."""

    id: str
    score: float


@dataclass(frozen=True)
class Legs:
    """What both legs returned for one query, best first, and how long the round trip took."""

    fulltext: tuple[LegHit, ...]
    vector: tuple[LegHit, ...]
    seconds: float

    def rankings(self) -> dict[str, list[str]]:
        return {
            FULLTEXT: [hit.id for hit in self.fulltext],
            VECTOR: [hit.id for hit in self.vector],
        }


def search_legs(
    client: Neo4jClient,
    *,
    corpus: str,
    fulltext_index: str,
    vector_index: str,
    lucene: str | None,
    vector: Sequence[float] | None,
    depth: int = 100,
    fetch: int | None = None,
) -> Legs:
    """Run both legs in one query; a leg whose input is None returns nothing.

    Each index covers every corpus and cannot filter by one, so each leg fetches `fetch`
    candidates (default `depth`) and keeps the best `depth` of `corpus`: with several corpora
    stored, raise `fetch` or a leg may come back short.
    """
    if depth < 1:
        raise ConfigurationError(f"depth must be at least 1, got {depth}")
    fetch = depth if fetch is None else fetch
    if fetch < depth:
        raise ConfigurationError(f"fetch ({fetch}) must be at least depth ({depth})")
    started = time.perf_counter()
    row = client.read(
        load_query("documents/search"),
        {
            "corpus": corpus,
            "fulltext_index": fulltext_index,
            "lucene": lucene,
            "vector_index": vector_index,
            "vector": list(vector) if vector is not None else None,
            "fetch": fetch,
            "depth": depth,
        },
    )[0]
    seconds = time.perf_counter() - started
    return Legs(
        fulltext=tuple(LegHit(str(h["id"]), float(h["score"])) for h in row["text_hits"]),
        vector=tuple(LegHit(str(h["id"]), float(h["score"])) for h in row["vector_hits"]),
        seconds=seconds,
    )


@dataclass(frozen=True)
class FusedHit:
    """One fused hit: its RRF score and its rank (from 1) in each leg that returned it."""

    id: str
    score: float
    ranks: Mapping[str, int]


def fuse(
    legs: Legs,
    *,
    weights: Mapping[str, float] | None = None,
    k: float = 60.0,
    limit: int | None = None,
) -> list[FusedHit]:
    """RRF of the two legs (`weights` per leg name, default 1.0 each), best first."""
    rankings = legs.rankings()
    positions = {
        leg: {doc: rank for rank, doc in reversed(list(enumerate(ids, start=1)))}
        for leg, ids in rankings.items()
    }
    fused = rrf(rankings, k=k, weights=weights)
    if limit is not None:
        fused = fused[:limit]
    return [
        FusedHit(
            id=doc,
            score=score,
            ranks={leg: ranks[doc] for leg, ranks in positions.items() if doc in ranks},
        )
        for doc, score in fused
    ]
