"""neo4j-graphrag's `HybridRetriever` on OUR indexes: the external baseline of the benchmarks.

It searches the same vector index (`code_embedding` over `:Code.embedding`) and full-text index
(`code_search_text` over `:Code.search_text`) that `search()` uses, with our embedder wrapped as
a neo4j-graphrag `Embedder`, so the comparison isolates the retrieval logic (its max-normalised
score fusion of two legs against our RRF of three).

Two things it does differently, both measured rather than patched:

* It passes the question to Lucene as typed. Text such as `django/utils/text.py?` or
  `f(x) AND` fails to parse (`SearchQueryParseError`, or a driver error carrying Lucene's
  `TokenMgrError`); either counts here as a failed query with no hits (`BaselineResult.error`).
* Its hybrid query takes no filter (neo4j-graphrag 1.22: "Filters are not supported with hybrid
  search"), so it fetches `fetch` hits over every repository in the database and keeps the
  first `k` of the asked repository. With other repositories indexed it can come back short.

Needs the `bench` extra (`neo4j-graphrag==1.22.0`).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import neo4j
from neo4j_graphrag.embeddings.base import Embedder as GraphRAGEmbedder
from neo4j_graphrag.exceptions import SearchQueryParseError
from neo4j_graphrag.retrievers import HybridRetriever

from graphrag_code.embedding.base import Embedder
from graphrag_code.runtime.endpoint import Neo4jEndpoint

__all__ = [
    "BaselineHit",
    "BaselineResult",
    "GraphRAGEmbedderAdapter",
    "HybridRetrieverBaseline",
]

DEFAULT_FETCH = 200
_LUCENE_ERROR = "org.apache.lucene.queryparser"
_ID_DEPRECATION = "The default returned 'id' field"


class GraphRAGEmbedderAdapter(GraphRAGEmbedder):
    """Our `Embedder` as a neo4j-graphrag `Embedder`: the same query vectors on both sides."""

    def __init__(self, embedder: Embedder) -> None:
        super().__init__()
        self.embedder = embedder

    def embed_query(self, text: str) -> list[float]:
        return [float(value) for value in self.embedder.embed_query(text)]


@dataclass(frozen=True)
class BaselineHit:
    id: str
    repo: str
    path: str
    score: float


@dataclass(frozen=True)
class BaselineResult:
    """The hits of the asked repository (best first) and the time of the retriever call
    alone (the query vector is computed before it and timed as `embed_seconds`)."""

    hits: tuple[BaselineHit, ...]
    seconds: float
    embed_seconds: float
    returned: int  # hits over all repositories, before keeping the asked one's
    kept: int  # of those, hits in the asked repository (before the cut at k)
    error: str | None = None


class HybridRetrieverBaseline:
    """neo4j-graphrag `HybridRetriever` (naive ranker: max of max-normalised leg scores).

    Nothing connects in the constructor; the first search opens a driver of its own.
    """

    def __init__(
        self,
        endpoint: Neo4jEndpoint,
        embedder: Embedder,
        *,
        vector_index: str,
        fulltext_index: str,
        database: str | None = None,
        fetch: int = DEFAULT_FETCH,
    ) -> None:
        self.endpoint = endpoint
        self.embedder = GraphRAGEmbedderAdapter(embedder)
        self.vector_index = vector_index
        self.fulltext_index = fulltext_index
        self.database = database or endpoint.database
        self.fetch = fetch
        self._driver: neo4j.Driver | None = None
        self._retriever: HybridRetriever | None = None

    @property
    def retriever(self) -> HybridRetriever:
        if self._retriever is None:
            self._driver = neo4j.GraphDatabase.driver(self.endpoint.uri, auth=self.endpoint.auth())
            self._retriever = HybridRetriever(
                self._driver,
                self.vector_index,
                self.fulltext_index,
                embedder=self.embedder,
                return_properties=["id", "repo", "path"],
                neo4j_database=self.database,
            )
        return self._retriever

    def search(
        self,
        text: str,
        *,
        repo: str | None,
        k: int,
        vector: Sequence[float] | None = None,
        fetch: int | None = None,
    ) -> BaselineResult:
        """The top `k` hits of `repo` (None: any) among the first `fetch` over all repos."""
        retriever = self.retriever
        embed_seconds = 0.0
        if vector is None:
            started = time.perf_counter()
            vector = self.embedder.embed_query(text)
            embed_seconds = time.perf_counter() - started
        started = time.perf_counter()
        try:
            with warnings.catch_warnings():
                # 1.22 warns on every query that its default `id` column will go; we read our
                # own `id` property through `return_properties`, not that column
                warnings.filterwarnings("ignore", _ID_DEPRECATION, DeprecationWarning)
                raw = retriever.get_search_results(
                    query_text=text, query_vector=list(vector), top_k=fetch or self.fetch
                )
        except SearchQueryParseError:
            seconds = time.perf_counter() - started
            return BaselineResult((), seconds, embed_seconds, 0, 0, error="lucene parse error")
        except neo4j.exceptions.ClientError as exc:
            # neo4j-graphrag translates Lucene's ParseException only; its lexer's TokenMgrError
            # (an unterminated `/regex/` such as `utils/text.py?`) arrives as a driver error
            if _LUCENE_ERROR not in str(exc):
                raise
            seconds = time.perf_counter() - started
            return BaselineResult((), seconds, embed_seconds, 0, 0, error="lucene lexical error")
        seconds = time.perf_counter() - started
        hits = []
        for record in raw.records:
            node = record["node"]
            hit = BaselineHit(
                id=str(node.get("id")),
                repo=str(node.get("repo")),
                path=str(node.get("path") or ""),
                score=float(record["score"]),
            )
            if repo is None or hit.repo == repo:
                hits.append(hit)
        return BaselineResult(tuple(hits[:k]), seconds, embed_seconds, len(raw.records), len(hits))

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()
            self._driver = None
            self._retriever = None
